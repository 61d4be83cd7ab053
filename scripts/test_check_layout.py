#!/usr/bin/env python3
"""Tests of scripts/check_layout.py: it runs on small workspaces planted in
temporary directories, and must fail (exit 1) on a planted import cycle, a
planted long file and a front naming a format module, and pass a clean
tree. Run from anywhere: `python3 scripts/test_check_layout.py`.
"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_layout.py")

CARGO = """\
[package]
name = "t"

[features]
default = ["npy", "tfrecord"]
npy = []
tfrecord = ["dep:flate2"]
arrow = ["tfrecord", "dep:arrow-array"]
dlpack = []
"""

LIB = """\
#[cfg(feature = "arrow")]
pub mod arrow;
#[cfg(feature = "dlpack")]
pub mod dlpack;
pub mod io;
#[cfg(feature = "npy")]
pub mod npy;
mod a;
mod b;
#[cfg(feature = "tfrecord")]
pub mod tfrecord;
"""

ROWS = """\
#[cfg(feature = "npy")]
pub(crate) mod npy;
pub(crate) mod tensorproto;
#[cfg(feature = "tfrecord")]
pub(crate) mod tfrecord;

const ROWS: &[&Row] = &[];
"""


def clean_tree():
    """A small workspace the checker passes: `a` uses `b`, not back."""
    return {
        "Cargo.toml": CARGO,
        "src/lib.rs": LIB,
        "src/io/mod.rs": "pub(crate) mod formats;\n",
        "src/io/formats/mod.rs": ROWS,
        "src/io/formats/npy.rs": "",
        "src/io/formats/tensorproto.rs": "",
        "src/io/formats/tfrecord.rs": "",
        "src/arrow.rs": "pub fn f() {}\n",
        "src/dlpack.rs": "pub fn f() {}\n",
        "src/npy.rs": "pub fn f() {}\n",
        "src/tfrecord.rs": "pub fn f() {}\n",
        "src/a.rs": "use crate::b::g;\npub(crate) fn f() { g() }\n",
        "src/b.rs": "pub(crate) fn g() {}\n",
        "cli/src/main.rs": "fn main() { tftensor::io::open(); tftensor::dlpack::f(); }\n",
        "python/src/lib.rs": "fn f() { tft::io::open(); }\n",
    }


def run(files):
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(textwrap.dedent(text))
        p = subprocess.run(
            [sys.executable, CHECKER], cwd=root, capture_output=True, text=True, check=False
        )
        return p.returncode, p.stdout + p.stderr


class CheckLayout(unittest.TestCase):
    def assert_fails(self, files, *needles):
        code, out = run(files)
        self.assertEqual(code, 1, out)
        for n in needles:
            self.assertIn(n, out)

    def assert_passes(self, files):
        code, out = run(files)
        self.assertEqual(code, 0, out)
        self.assertIn("check_layout src: ", out)

    def test_a_clean_tree_passes(self):
        self.assert_passes(clean_tree())

    def test_a_planted_cycle_fails(self):
        files = clean_tree()
        files["src/b.rs"] = "pub(crate) fn g() { crate::a::f() }\n"
        self.assert_fails(files, "import cycle among: src/a.rs, src/b.rs", "1 cycles")

    def test_a_cycle_after_a_continued_string_is_found(self):
        # The string's `\`-newline continuation once made the scanner pair
        # the wrong quotes, hiding the path after it (saved_model's cycle).
        files = clean_tree()
        files["src/b.rs"] = (
            "pub(crate) fn g() {\n"
            '    let s = "a string with a \\\n'
            '             continuation, and use in it";\n'
            "    crate::a::f();\n"
            '    let t = "another";\n'
            "}\n"
        )
        self.assert_fails(files, "import cycle among: src/a.rs, src/b.rs")

    def test_paths_inside_literals_and_comments_are_not_imports(self):
        files = clean_tree()
        files["src/b.rs"] = (
            "pub(crate) fn g() {\n"
            '    let a = "crate::a::f \\" crate::a::f";\n'
            '    let b = r#"crate::a::f " still inside"#;\n'
            '    let c = b"crate::a::f";\n'
            "    let d = '\"'; let e = '\\''; let q = b'\"';\n"
            "    let f = \"crate::a::f\";\n"
            "    // crate::a::f\n"
            "    /* crate::a::f /* nested */ crate::a::f */\n"
            "    fn lt<'a>(x: &'a str) -> &'a str { x }\n"
            "}\n"
        )
        self.assert_passes(files)

    def test_a_char_literal_quote_does_not_open_a_string(self):
        # `'"'` is a char: were it read as a string's start, the path after
        # it would be hidden and the cycle missed.
        files = clean_tree()
        files["src/b.rs"] = (
            "pub(crate) fn g() {\n"
            "    let q = '\"';\n"
            "    crate::a::f();\n"
            "    let r = '\"';\n"
            "}\n"
        )
        self.assert_fails(files, "import cycle among: src/a.rs, src/b.rs")

    def test_a_planted_long_file_fails(self):
        files = clean_tree()
        files["src/b.rs"] = "pub(crate) fn g() {}\n" + "const X: u8 = 0;\n" * 800
        self.assert_fails(files, "src/b.rs: 801 lines of code (limit 800)", "1 long files")

    def test_comments_blank_lines_and_tests_are_not_code(self):
        files = clean_tree()
        files["src/b.rs"] = (
            "pub(crate) fn g() {}\n"
            + "/// doc\n// note\n\n" * 300
            + "/* a\nblock\n*/\n" * 100
            + '#[cfg(test)]\nmod tests {\n    const S: &str = "}";\n'
            + "    const X: u8 = 0;\n" * 900
            + "}\n"
        )
        self.assert_passes(files)

    def test_a_front_naming_a_format_from_the_rows_fails(self):
        # tfrecord is a row's module; arrow turns tfrecord on; dlpack is
        # not a format.
        for module in ("tfrecord", "arrow"):
            files = clean_tree()
            files["cli/src/main.rs"] = f"fn main() {{ tftensor::{module}::f(); }}\n"
            self.assert_fails(files, f"cli/src/main.rs: names tftensor::{module}")


if __name__ == "__main__":
    unittest.main()

//! The help text and the README's format table come from the library's
//! rows: every format is named, and nothing else.

mod common;

use common::tftensor;
use tftensor::io::Format;

fn stdout(args: &[&str]) -> String {
    let out = tftensor().args(args).output().expect("run");
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The line of `text` that starts with the format's name (after spaces).
fn line_of(text: &str, f: Format) -> Option<&str> {
    text.lines()
        .find(|l| l.split_whitespace().next() == Some(f.name()))
}

#[test]
fn help_names_every_row_with_its_endings() {
    let help = stdout(&["--help"]);
    for f in Format::all() {
        let line = line_of(&help, f).unwrap_or_else(|| panic!("{f} not in --help:\n{help}"));
        for ext in f.extensions() {
            assert!(line.contains(&format!(".{ext}")), "{line}");
        }
        assert_eq!(line.ends_with("read, write"), f.can_write(), "{line}");
    }
}

#[test]
fn convert_help_names_every_written_row() {
    let help = stdout(&["convert", "--help"]);
    for f in Format::all() {
        let line = line_of(&help, f);
        assert_eq!(line.is_some(), f.can_write(), "{f}:\n{help}");
        if let Some(line) = line {
            for ext in f.extensions() {
                assert!(line.contains(&format!(".{ext}")), "{line}");
            }
        }
    }
}

/// README.md's table between the `formats` markers is the rows, in order.
#[test]
fn the_readme_lists_the_rows() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md");
    let table = readme
        .split("<!-- formats:begin -->\n")
        .nth(1)
        .and_then(|rest| rest.split("<!-- formats:end -->").next())
        .expect("the README's formats markers");
    let mut want = String::from("| Format | Endings | Written by `convert` |\n|---|---|---|\n");
    for f in Format::all() {
        let endings: Vec<String> = f.extensions().iter().map(|e| format!("`.{e}`")).collect();
        let endings = endings.join(" ");
        let writes = if f.can_write() { "yes" } else { "no" };
        let endings = if endings.is_empty() {
            String::new()
        } else {
            format!(" {endings}")
        };
        want.push_str(&format!("| `{}` |{endings} | {writes} |\n", f.name()));
    }
    assert_eq!(
        table, want,
        "README.md's format table (regenerate it from the rows)"
    );
}

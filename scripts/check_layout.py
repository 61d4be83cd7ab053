#!/usr/bin/env python3
"""Checks the layout rules of the workspace's crates (the library's src/,
the CLI's cli/src/ and the Python module's python/src/): no import cycle
among a crate's files, no file over 800 lines of code (doc comments,
comments, blank lines and `#[cfg(test)]` items not counted), and fronts
that reach the file formats only through `tftensor::io`.

An import is a `use` of, or a path through, another file's module
(`crate::a::b`, `super::x`, `self::x`). Facades are not imports: `lib.rs`
is left out, as are `mod` declarations and a module's `pub use` of its own
children (re-exports). Prints the cycles and the long files; exits 1 if
there are any. Run from the repository root: `python3 scripts/check_layout.py`.
"""
import os
import re
import sys

SRC = "src"
ROOT_FILE = "lib"
# Each crate: its source folder and its root file.
CRATES = [("src", "lib"), ("cli/src", "main"), ("python/src", "lib")]
# Where the format modules a front may not name are read from (see
# `format_modules`): the rows' `mod` lines, the library's root, its features.
ROWS_FILE = "src/io/formats/mod.rs"
LIB_FILE = "src/lib.rs"
CARGO_FILE = "Cargo.toml"
# Allowed exceptions, as (file, format module) pairs; "*" is any module.
# The Python module's record-level TFRecord API and its older per-format
# aliases (python/README.md lists them); its Arrow module, and its
# SavedModel / TensorBoard classes (format APIs of their own, not reading
# tensors). The CLI's `inspect --arrow-schema` names `tftensor::arrow`: a
# front reaching a format, listed so it is seen, to be moved behind `io`.
# Records by number (`RecordFile`, DALI `.idx`: `tftensor index` and
# Python's RecordFile) are TFRecord's record-level API, not tensors.
FRONT_EXCEPTIONS = {
    ("python/src/formats.rs", "*"),
    ("python/src/arrow.rs", "arrow"),
    ("python/src/spec.rs", "arrow"),
    ("python/src/records.rs", "tfrecord"),
    ("cli/src/commands/index.rs", "tfrecord"),
    ("python/src/tf_files.rs", "saved_model"),
    ("python/src/tf_files.rs", "events"),
    ("cli/src/commands/inspect.rs", "arrow"),
}
MAX_CODE_LINES = 800


def module_of(path):
    rel = path[len(SRC) + 1 : -3].split("/")
    if rel[-1] == "mod":
        rel = rel[:-1]
    return tuple(rel) if rel != [ROOT_FILE] else ()


def file_of(mod):
    if not mod:
        return os.path.join(SRC, ROOT_FILE + ".rs")
    base = os.path.join(SRC, *mod)
    for cand in (base + ".rs", os.path.join(base, "mod.rs")):
        if os.path.exists(cand):
            return cand
    return None


def strip_tests(text):
    """Drops `#[cfg(test)]` items (a `mod tests { ... }` block or one item)."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        j = m.end()
        # the item ends at `;` before any `{`, or at the matching `}`
        depth, k = 0, j
        while k < len(text):
            c = text[k]
            if c == ";" and depth == 0:
                k += 1
                break
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    k += 1
                    break
            k += 1
        i = k
    out.append(text[i:])
    return "".join(out)


def is_ident(c):
    return c.isalnum() or c == "_"


def raw_string_end(text, i):
    """If a raw string (`r"..."`, `r#"..."#`, with a `b`/`c` prefix) starts
    at `i`, the index just past it; else None."""
    j = i
    if text.startswith(("br", "cr"), j):
        j += 2
    elif text.startswith("r", j):
        j += 1
    else:
        return None
    hashes = 0
    while j < len(text) and text[j] == "#":
        hashes += 1
        j += 1
    if j >= len(text) or text[j] != '"':
        return None
    close = '"' + "#" * hashes
    end = text.find(close, j + 1)
    return len(text) if end < 0 else end + len(close)


def string_end(text, i):
    """`text[i]` is the opening `"` of a (byte, C) string: the index just past
    its closing quote. A backslash escapes the next character, a newline
    included (a `\\`-newline continuation)."""
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == '"':
            return j + 1
        j += 1
    return len(text)


def char_end(text, i):
    """`text[i]` is a `'`: the index just past a char literal starting there
    (`'a'`, `'"'`, `'\\''`, `'\\u{1F600}'`), or None for a lifetime or a
    label (`'a`, `'outer:`)."""
    if i + 1 < len(text) and text[i + 1] == "\\":
        j = i + 2
        if j < len(text):
            j += 1  # the escaped character, `'` included
        while j < len(text) and text[j] != "'" and text[j] != "\n":
            j += 1
        return j + 1 if j < len(text) and text[j] == "'" else None
    if i + 2 < len(text) and text[i + 2] == "'" and text[i + 1] != "\n":
        return i + 3
    return None


def strip_comments(text):
    """The code of a Rust file without comments (doc comments included),
    with every string, byte string, raw string and char literal emptied
    (`""`, `' '`), so nothing inside a literal or a comment is read as code.
    Newlines inside comments stay (code after a block comment keeps its
    line); a multi-line string counts as the one line it starts on."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        prev_ident = i > 0 and is_ident(text[i - 1])
        if c in "rbc" and not prev_ident:
            end = raw_string_end(text, i)
            if end is not None:
                out.append('""')
                i = end
                continue
            if c in "bc" and i + 1 < n and text[i + 1] == '"':
                out.append('""')
                i = string_end(text, i + 1)
                continue
            if c == "b" and i + 1 < n and text[i + 1] == "'":
                end = char_end(text, i + 1)
                if end is not None:
                    out.append("' '")
                    i = end
                    continue
        if c == '"':
            out.append('""')
            i = string_end(text, i)
            continue
        if c == "'":
            end = char_end(text, i)
            if end is not None:
                out.append("' '")
                i = end
                continue
        # an identifier (or number) whole, so its letters never start a literal
        if is_ident(c):
            j = i + 1
            while j < n and is_ident(text[j]):
                j += 1
            out.append(text[i:j])
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


def cargo_features(path=CARGO_FILE):
    """`[features]` of Cargo.toml: feature -> the features it enables."""
    feats, section = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.split("#")[0].strip()
        m = re.match(r"\[(.*)\]$", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"([A-Za-z0-9_-]+)\s*=\s*\[(.*)\]", line)
        if section == "features" and m:
            feats[m.group(1)] = re.findall(r'"([^":/]+)"', m.group(2))
    return feats


def format_modules():
    """The library's format modules, derived from the rows: the features
    that gate a `mod` line of `src/io/formats/mod.rs`, any feature that
    turns one of those on (arrow turns on tfrecord), and then every
    top-level module of `src/lib.rs` behind one of those features."""
    raw = open(ROWS_FILE, encoding="utf-8").read()
    features = set(
        re.findall(r'#\[cfg\(feature\s*=\s*"([^"]+)"\)\]\s*pub(?:\([^)]*\))?\s+mod\s+\w+\s*;', raw)
    )
    if not features:
        raise SystemExit(f"check_layout: no feature-gated `mod` line in {ROWS_FILE}")
    deps = cargo_features()
    grew = True
    while grew:
        grew = False
        for f, on in deps.items():
            if f not in features and features.intersection(on):
                features.add(f)
                grew = True
    lib = open(LIB_FILE, encoding="utf-8").read()
    mods = set()
    for m in re.finditer(
        r'#\[cfg\(feature\s*=\s*"([^"]+)"\)\]\s*pub(?:\([^)]*\))?\s+mod\s+(\w+)\s*;', lib
    ):
        if m.group(1) in features:
            mods.add(m.group(2))
    return tuple(sorted(mods))


def use_paths(text):
    """Every path a file names: `use` trees (expanded) and inline paths."""
    paths = []
    for m in re.finditer(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", text):
        is_pub = bool(m.group(1))
        tree = re.sub(r"\s*::\s*", "::", " ".join(m.group(2).split()))
        for p in expand(tree):
            paths.append((p, is_pub))
    body = re.sub(r"\buse\s+[^;]+;", "", text)
    for m in re.finditer(r"\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)", body):
        paths.append((m.group(1).split("::"), False))
    return paths


def expand(tree, prefix=()):
    """`a::{b, c::{d, e}}` -> [[a, b], [a, c, d], [a, c, e]]."""
    tree = tree.strip()
    if not tree:
        return []
    brace = tree.find("{")
    if brace < 0:
        tree = tree.split(" as ")[0]
        return [list(prefix) + [s for s in tree.split("::") if s]]
    head = [s for s in tree[:brace].split("::") if s]
    inner = tree[brace + 1 : tree.rfind("}")]
    parts, depth, cur = [], 0, ""
    for c in inner:
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += c == "{"
        depth -= c == "}"
        cur += c
    parts.append(cur)
    out = []
    for part in parts:
        out.extend(expand(part, tuple(prefix) + tuple(head)))
    return out


def resolve(mod, path):
    """The deepest existing module a path goes through, or None."""
    if path[0] == "crate":
        base, rest = (), path[1:]
    elif path[0] == "super":
        base, rest = mod, path
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    elif path[0] == "self":
        base, rest = mod, path[1:]
    else:
        # a child module named without `self::`
        if file_of(mod + (path[0],)):
            base, rest = mod, path
        else:
            return None
    target = base
    for seg in rest:
        if file_of(target + (seg,)):
            target = target + (seg,)
        else:
            break
    return target


def check_crate():
    files = []
    for root, _, names in os.walk(SRC):
        for n in names:
            if n.endswith(".rs"):
                files.append(os.path.join(root, n))
    graph, long_files = {}, []
    for f in sorted(files):
        mod = module_of(f)
        raw = open(f, encoding="utf-8").read()
        code = strip_tests(strip_comments(raw))
        lines = [l for l in code.split("\n") if l.strip()]
        if os.path.basename(f) != "tests.rs" and len(lines) > MAX_CODE_LINES:
            long_files.append((len(lines), f))
        if not mod or os.path.basename(f) == "tests.rs":
            continue
        edges = set()
        for path, is_pub in use_paths(code):
            target = resolve(mod, path)
            if target is None or target == mod or not target:
                continue
            # a module re-exporting its own children is a facade
            if is_pub and target[: len(mod)] == mod:
                continue
            edges.add(target)
        graph[mod] = edges

    # cycles: strongly connected components of size > 1
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            strong(v)

    bad = False
    for comp in sccs:
        bad = True
        names = sorted(file_of(m) for m in comp)
        print("import cycle among: " + ", ".join(names))
        for m in sorted(comp):
            for w in sorted(graph[m]):
                if w in comp:
                    print(f"    {file_of(m)} -> {file_of(w)}")
    for n, f in sorted(long_files, reverse=True):
        bad = True
        print(f"{f}: {n} lines of code (limit {MAX_CODE_LINES})")
    front = []
    if SRC != "src":
        pattern = re.compile(r"\b(?:tftensor|tft)::(" + "|".join(format_modules()) + r")\b")
        for f in sorted(files):
            code = strip_comments(open(f, encoding="utf-8").read())
            for m in pattern.finditer(code):
                if (f, "*") in FRONT_EXCEPTIONS or (f, m.group(1)) in FRONT_EXCEPTIONS:
                    continue
                bad = True
                front.append(f)
                print(f"{f}: names tftensor::{m.group(1)}; a front reaches formats through tftensor::io")
    print(
        f"check_layout {SRC}: {len(graph)} files, {len(sccs)} cycles, "
        f"{len(long_files)} long files, {len(front)} format imports in a front"
    )
    return 1 if bad else 0


def main():
    global SRC, ROOT_FILE
    status = 0
    for src, root in CRATES:
        SRC, ROOT_FILE = src, root
        status |= check_crate()
    return status


if __name__ == "__main__":
    sys.exit(main())

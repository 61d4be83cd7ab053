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
# Format modules a front may not name: it goes through `tftensor::io`.
FORMAT_MODULES = ("checkpoint", "npy", "safetensors")
# The Python module's record-level TFRecord API and its older per-format
# aliases (python/README.md lists them) are the allowed exceptions.
FRONT_EXCEPTIONS = {"python/src/formats.rs"}
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


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return "\n".join(re.sub(r"//.*", "", line) for line in text.split("\n"))


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
        code = strip_comments(strip_tests(raw))
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
        pattern = re.compile(r"\b(?:tftensor|tft)::(" + "|".join(FORMAT_MODULES) + r")\b")
        for f in sorted(files):
            if f in FRONT_EXCEPTIONS:
                continue
            code = strip_comments(open(f, encoding="utf-8").read())
            for m in pattern.finditer(code):
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

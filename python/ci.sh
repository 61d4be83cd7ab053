#!/usr/bin/env bash
# The tftensor Python package as a user installs it: builds the abi3 wheel
# (`maturin build --release`) and the sdist (`maturin sdist`), installs
# each into a fresh venv, and runs there, against the installed package
# (never `maturin develop`): the pytest suite, and for the wheels
# `mypy --strict` on the tests and on README.md's ```python examples and
# `mypy.stubtest` (the stub against the built module; the sdist builds the
# same module and ships the same stub).
#
# The wheel is tested on every CPython 3.11..3.14 found on PATH as
# python3.11 ... python3.14 (or the interpreters listed in $PYTHONS), the
# sdist (which compiles the crates again, in release) on the first of them.
# The sdist's build shares this workspace's target/ (CARGO_TARGET_DIR), so
# only the two tftensor crates compile again. Work goes to
# target/python-ci/ (or $TFTENSOR_PY_WORK), made anew each run. Needs
# cargo, one of those Pythons, and PyPI (maturin, uv, numpy, pytest, mypy,
# safetensors, pyarrow, moto). PyTorch, JAX and TensorFlow tests run when
# importable and are skipped otherwise; moto (S3 on 127.0.0.1) serves the
# s3:// tests.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="${TFTENSOR_PY_WORK:-$root/target/python-ci}"
pip_args=(--quiet --disable-pip-version-check)
test_deps=("numpy>=2.1,<2.5" "pytest>=7" "safetensors" "pyarrow" "moto[server]>=5.1,<6"
    "mypy>=1.13" "typing_extensions>=4.12")
started=$SECONDS

say() { printf '== python: %s (%ds)\n' "$*" "$((SECONDS - started))"; }

# The interpreters: one per minor version, 3.11 or newer.
if [ -n "${PYTHONS:-}" ]; then
    read -r -a candidates <<<"$PYTHONS"
else
    candidates=(python3.11 python3.12 python3.13 python3.14)
fi
pythons=()
versions=()
for candidate in "${candidates[@]}"; do
    # A pyenv shim exists for versions that are not selected: ask it to run.
    version=$("$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || continue
    case " ${versions[*]} " in *" $version "*) continue ;; esac
    if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        pythons+=("$candidate")
        versions+=("$version")
    fi
done
if [ ${#pythons[@]} -eq 0 ]; then
    echo "python/ci.sh: no python3.11 .. python3.14 on PATH" >&2
    exit 1
fi
say "CPython versions found: ${versions[*]}"

rm -rf "$work"
mkdir -p "$work/dist" "$work/readme"

# maturin, in a venv of its own, and uv: it installs the test dependencies
# into each fresh venv in seconds, where pip takes a minute (pip is the
# fallback when uv cannot be installed).
"${pythons[0]}" -m venv "$work/build"
"$work/build/bin/python" -m pip install "${pip_args[@]}" "maturin>=1.7,<2"
if "$work/build/bin/python" -m pip install "${pip_args[@]}" "uv>=0.5,<1"; then
    install_test_deps() { "$work/build/bin/uv" pip install --quiet --python "$1" "${test_deps[@]}"; }
else
    install_test_deps() { "$1" -m pip install "${pip_args[@]}" "${test_deps[@]}"; }
fi
cd "$here"
say "maturin build --release (abi3 wheel)"
"$work/build/bin/maturin" build --release --quiet --out "$work/dist"
say "maturin sdist"
"$work/build/bin/maturin" sdist --out "$work/dist"
wheel=$(ls "$work"/dist/tftensor-*.whl)
sdist=$(ls "$work"/dist/tftensor-*.tar.gz)
say "wheel $(basename "$wheel") holds:"
"$work/build/bin/python" -m zipfile -l "$wheel" | sed 's/^/    /'
"$work/build/bin/python" - "$wheel" <<'EOF'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
missing = {"tftensor/__init__.pyi", "tftensor/py.typed"} - names
sys.exit(f"the wheel lacks {sorted(missing)}" if missing else 0)
EOF

# README.md's ```python blocks, each a module of its own for mypy.
"$work/build/bin/python" - "$here/README.md" "$work/readme" <<'EOF'
import pathlib, re, sys
text = pathlib.Path(sys.argv[1]).read_text()
blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
for i, block in enumerate(blocks, 1):
    pathlib.Path(sys.argv[2], f"readme_example_{i}.py").write_text(block)
print(f"    {len(blocks)} python examples in README.md")
EOF

# Installs `what` into a fresh venv made by `python`, then tests it there.
check() {
    local label=$1 python=$2 what=$3
    local venv="$work/venv-$label" version
    version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    "$python" -m venv "$venv"
    say "$label: test dependencies"
    install_test_deps "$venv/bin/python"
    say "$label: pip install $(basename "$what")"
    CARGO_TARGET_DIR="$root/target" "$venv/bin/python" -m pip install "${pip_args[@]}" "$what"
    # Out of python/, so that nothing but the installed package is imported.
    (cd "$work" && "$venv/bin/python" -c \
        'import tftensor; print("    tftensor", tftensor.__version__, "from", tftensor.__file__)')
    say "$label: pytest"
    (cd "$here" && "$venv/bin/python" -m pytest -q -rs -p no:cacheprovider tests)
    if [ "$label" = "sdist-py${versions[0]}" ]; then
        # The same module and stub as the wheel's, checked there.
        return 0
    fi
    say "$label: mypy --strict (tests, README examples)"
    (cd "$here" && "$venv/bin/python" -m mypy --python-version "$version" \
        --cache-dir "$work/mypy-cache-$label" tests "$work"/readme/*.py)
    say "$label: stubtest"
    (cd "$work" && "$venv/bin/python" -m mypy.stubtest tftensor \
        --allowlist "$here/stubtest-allowlist.txt" --mypy-config-file "$here/pyproject.toml")
}

for i in "${!pythons[@]}"; do
    check "wheel-py${versions[$i]}" "${pythons[$i]}" "$wheel"
done
check "sdist-py${versions[0]}" "${pythons[0]}" "$sdist"
say "done: the wheel on CPython ${versions[*]}, the sdist on ${versions[0]}"

"""The module as a typed, documented package: `__all__` and `__version__`,
a docstring and a signature on every callable, the stub shipped next to
the extension (tftensor/__init__.pyi and py.typed), the stub's
@deprecated texts equal to the warnings, and the README's table of
exceptions equal to python/src/errors.rs. (`mypy.stubtest` checks the
stub's names and signatures against the module: python/ci.sh.)"""

import ast
import builtins
import inspect
import pathlib
import re
import tomllib
import warnings

import numpy as np
import pytest

import tftensor

PYTHON = pathlib.Path(__file__).resolve().parents[1]
STUB = PYTHON / "tftensor.pyi"


def test_all_lists_every_public_name_and_the_version() -> None:
    public = {n for n in dir(tftensor) if not n.startswith("_")}
    public.discard("tftensor")  # the extension module maturin's __init__.py imports from
    assert set(tftensor.__all__) == public | {"__version__"}
    version = tomllib.loads((PYTHON / "pyproject.toml").read_text())["project"]["version"]
    assert tftensor.__version__ == version


def test_every_callable_has_a_docstring_and_a_signature() -> None:
    for name in tftensor.__all__:
        obj = getattr(tftensor, name)
        if not callable(obj):
            continue
        assert (obj.__doc__ or "").strip(), name
        inspect.signature(obj)  # raises without a text signature
        if not inspect.isclass(obj):
            continue
        for attr, member in vars(obj).items():
            if attr in ("__doc__", "__module__", "__new__", "__hash__"):
                continue
            assert (getattr(member, "__doc__", None) or "").strip(), f"{name}.{attr}"
            if callable(member):
                inspect.signature(member)


def test_the_package_ships_its_stub_and_py_typed() -> None:
    package = pathlib.Path(tftensor.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "__init__.pyi").read_text() == STUB.read_text(), "installed stub is stale"


def stub_deprecations() -> dict[str, str]:
    """name -> the text of its @deprecated(...) in the stub."""
    out = {}
    for node in ast.parse(STUB.read_text()).body:
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                if isinstance(d, ast.Call) and getattr(d.func, "id", None) == "deprecated":
                    arg = d.args[0]
                    assert isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                    out[node.name] = arg.value
    return out


@pytest.mark.parametrize("name", sorted(stub_deprecations()))
def test_the_stubs_deprecations_are_the_warnings(name: str, tmp_path: pathlib.Path) -> None:
    # A path below a file: each alias warns first, then fails to read or write.
    fn = getattr(tftensor, name)
    (tmp_path / "file").write_bytes(b"")
    missing = str(tmp_path / "file" / "x")
    args: list[object] = [missing]
    params = list(inspect.signature(fn).parameters)
    if len(params) > 1 and params[1] == "tensor":
        args.append(np.zeros(2))
    elif len(params) > 1 and params[1] == "tensors":
        args.append([np.zeros(2)] if name == "write_tensors" else {"a": np.zeros(2)})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(OSError):
            fn(*args)
    messages = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    assert messages == [stub_deprecations()[name]]


def error_arms() -> dict[str, type[BaseException]]:
    """Library error kind -> the exception `to_py` in python/src/errors.rs
    makes of it ("_" for the catch-all arm)."""
    src = (PYTHON / "src" / "errors.rs").read_text()
    body = src.split("pub(crate) fn to_py", 1)[1].split("\n}\n", 1)[0]
    parts = body.split("=>")
    arms = {}
    for pattern, result in zip(parts, parts[1:]):
        kinds = re.findall(r"\bError::(\w+)", pattern)
        if re.search(r"\n\s*_\s*$", pattern):
            kinds.append("_")
        if "os_error(" in result.split("=>")[0] and re.match(r"\s*(\{\s*)?(let|os_error)", result):
            exc: type[BaseException] = OSError
        else:
            m = re.search(r"Py(\w+)::new_err", result)
            assert m, result
            exc = getattr(builtins, m.group(1))
        for kind in kinds:
            arms[kind] = exc
    return arms


def test_the_readmes_error_table_is_errors_rs() -> None:
    text = (PYTHON / "README.md").read_text()
    table = text.split("| Library error kind | Python exception |", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in table.strip().splitlines()[1:]:
        kinds_cell, exc_cell = line.strip("|").split("|", 1)
        exc = getattr(builtins, re.findall(r"`(\w+Error)`", exc_cell)[0])
        kinds = re.findall(r"`(\w+)`", kinds_cell) or ["_"]  # "any other kind"
        for kind in kinds:
            assert kind not in rows, kind
            rows[kind] = exc
    arms = error_arms()
    assert set(rows) == set(arms)
    for kind, exc in rows.items():
        assert issubclass(exc, arms[kind]), (kind, exc, arms[kind])

"""Type stubs for `tftensor`, the Python module of the Rust crate tftensor.

maturin ships this file as `tftensor/__init__.pyi` with a `py.typed`
marker. `python -m mypy.stubtest tftensor` checks it against the built
module (python/ci.sh runs it).
"""

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Final, Literal, Protocol, TypedDict, final, overload, type_check_only

import numpy as np
import numpy.typing as npt
from typing_extensions import CapsuleType, NotRequired, deprecated

__all__ = [
    "ArrowArray",
    "ArrowStream",
    "DeviceTensor",
    "Readback",
    "RecordFile",
    "SavedModel",
    "Source",
    "SummaryWriter",
    "Tensor",
    "__version__",
    "copy",
    "cuda_device_count",
    "decode_examples",
    "formats",
    "from_dlpack",
    "from_proto",
    "list_variables",
    "live_exports",
    "load",
    "load_checkpoint",
    "load_npy",
    "load_npz",
    "load_safetensors",
    "open",
    "read_events",
    "read_examples",
    "read_examples_arrow",
    "read_records",
    "read_tensors",
    "release_memory",
    "save",
    "save_checkpoint",
    "save_npy",
    "save_npz",
    "save_safetensors",
    "saved_model",
    "tensor_from_arrow",
    "tensor_to_arrow",
    "upload",
    "write_tensors",
]

__version__: Final[str]

# A path: a str or an os.PathLike (pathlib.Path); URLs (s3://, gs://,
# az://, https://) as str.
_Path = str | os.PathLike[str]

@type_check_only
class _SupportsDLPack(Protocol):
    """A DLPack producer: a NumPy array, a PyTorch/JAX/CuPy tensor, a Tensor."""

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any: ...

# What writers take: a Tensor (shared, no copy) or any DLPack producer.
_Array = Tensor | _SupportsDLPack

@type_check_only
class _ArrowArrayExportable(Protocol):
    """An Arrow PyCapsule producer of one array (pyarrow's arrays)."""

    def __arrow_c_array__(self, requested_schema: Any = ..., /) -> tuple[CapsuleType, CapsuleType]: ...

@type_check_only
class _ArrowSchemaExportable(Protocol):
    """An Arrow PyCapsule producer of a schema (a pyarrow Schema)."""

    def __arrow_c_schema__(self) -> CapsuleType: ...

# A feature spec: a plain dict ({"type": "FixedLenFeature", "shape": [2],
# "dtype": "int64", "default_value": [0, 0]}) or a tf.io feature object,
# read by class name and attributes.
_FeatureSpecs = Mapping[str, object]

@type_check_only
class _Quantization(TypedDict):
    scale: list[float]
    zero_point: list[int]
    quantized_dimension: int
    block_size: NotRequired[int]
    scales: NotRequired[str]
    zero_points: NotRequired[str]
    min: NotRequired[float]
    real_dtype: NotRequired[str]

@type_check_only
class _CopyReport(TypedDict):
    copied: int
    skipped: list[str]
    bytes: int

@type_check_only
class _TensorInfo(TypedDict):
    name: str
    dtype: str
    shape: list[int] | None

@type_check_only
class _Signature(TypedDict):
    method_name: str
    inputs: dict[str, _TensorInfo]
    outputs: dict[str, _TensorInfo]

@type_check_only
class _EventValue(TypedDict):
    run: str
    tag: str
    step: int
    wall_time: float
    kind: str
    value: Tensor

# ---------------------------------------------------------------- tensors

@final
class Tensor:
    """A TensorFlow tensor: a dtype and a shape over a refcounted buffer.

    Immutable from Python; exchanges memory with NumPy, PyTorch and other
    DLPack libraries without copying.
    """

    __hash__: ClassVar[None]  # type: ignore[assignment]
    @property
    def shape(self) -> tuple[int, ...]:
        """The dimension sizes."""
    @property
    def dtype(self) -> str:
        """TensorFlow's name of the dtype ("float", "int32", "bfloat16", ...)."""
    @property
    def num_elements(self) -> int:
        """The number of elements."""
    @property
    def data_ptr(self) -> int:
        """The address of the first element (0 without a buffer)."""
    @property
    def is_shared(self) -> bool:
        """Whether another tensor or a DLPack export shares this buffer."""
    def tensor_data(self) -> bytes:
        """TensorFlow's tensor_data(): the raw little-endian element bytes."""
    def numpy(self) -> npt.NDArray[Any]:
        """The values as a NumPy array: zero-copy and read-only (bytes objects for strings)."""
    def __array__(self, dtype: npt.DTypeLike | None = None, copy: bool | None = None) -> npt.NDArray[Any]:
        """NumPy's array protocol (np.asarray(t))."""
    def tolist(self) -> Any:
        """The values as nested lists, as numpy().tolist()."""
    def summarize(self, max_entries: int = 3, v2: bool = False) -> str:
        """TensorFlow's SummarizeValue(max_entries, print_v2)."""
    def to_proto(self, form: Literal["content", "field"] = "content") -> bytes:
        """A serialized TensorProto (AsProtoTensorContent or AsProtoField)."""
    def __dlpack__(
        self,
        *,
        stream: None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> CapsuleType:
        """DLPack export: zero-copy and read-only; copy=True exports a writable copy."""
    def __dlpack_device__(self) -> tuple[int, int]:
        """(device_type, device_id): always (1, 0), the CPU."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@final
class DeviceTensor:
    """A tensor in CUDA device memory, held zero-copy from a DLPack producer or uploaded."""

    @property
    def shape(self) -> tuple[int, ...]:
        """The dimension sizes."""
    @property
    def dtype(self) -> str:
        """TensorFlow's name of the dtype."""
    @property
    def device(self) -> tuple[int, int]:
        """(device_type, device_id) as DLPack says: (2, n) for CUDA."""
    @property
    def data_ptr(self) -> int:
        """The device address of the first element."""
    def readback(self) -> Tensor:
        """A host Tensor with the elements, copied through pinned memory."""
    def readback_async(self) -> Readback:
        """Starts a readback and returns at once."""
    def __dlpack__(
        self,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> CapsuleType:
        """DLPack export of the device memory, read-only, zero-copy."""
    def __dlpack_device__(self) -> tuple[int, int]:
        """(device_type, device_id)."""

@final
class Readback:
    """A readback of a DeviceTensor in flight."""

    def is_done(self) -> bool:
        """Whether the copy has finished."""
    def wait(self) -> Tensor:
        """Waits for the copy and returns the host tensor; only once."""

@overload
def from_dlpack(
    x: npt.NDArray[Any] | Tensor,
    /,
    *,
    device: Literal["cpu"] | tuple[int, int] | None = None,
    copy: bool | None = None,
) -> Tensor: ...
@overload
def from_dlpack(
    x: _SupportsDLPack | CapsuleType,
    /,
    *,
    device: Literal["cpu"] | tuple[int, int],
    copy: bool | None = None,
) -> Tensor: ...
@overload
def from_dlpack(
    x: _SupportsDLPack | CapsuleType,
    /,
    *,
    device: None = None,
    copy: bool | None = None,
) -> Tensor | DeviceTensor: ...
def from_proto(data: bytes) -> Tensor:
    """Parses a serialized TensorProto (TF's Tensor::FromProto)."""

def live_exports() -> int:
    """How many DLPack exports of this module consumers still hold."""

def release_memory() -> None:
    """Gives the memory of dropped large reads back to the system now."""

def upload(tensor: Tensor, device: str = "cuda:0") -> DeviceTensor:
    """Copies a host tensor to a CUDA device ("cuda" or "cuda:N")."""

def cuda_device_count() -> int:
    """How many CUDA devices the driver sees (RuntimeError without a driver)."""

# ------------------------------------------------------------------ files

@final
class Source:
    """A tensor file opened lazily: a read-only mapping name -> Tensor."""

    def keys(self) -> list[str]:
        """The names, in the file's order."""
    def __len__(self) -> int: ...
    def __contains__(self, name: str, /) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def __getitem__(self, name: str, /) -> Tensor:
        """Reads the tensor `name` (KeyError when the file has none)."""
    def entries(self) -> list[tuple[str, str, tuple[int, ...], int | None]]:
        """[(name, dtype, shape, nbytes)] from the headers; nbytes None for strings."""
    @property
    def quantization(self) -> dict[str, _Quantization]:
        """How each quantized entry's stored values map to real ones (TFLite's names)."""
    def dequantize(self, name: str) -> Tensor:
        """Reads `name` as real values: float32 through its quantization."""
    @property
    def metadata(self) -> dict[str, str]:
        """What the format knows beyond the tensors (safetensors' __metadata__, ...)."""
    @property
    def format(self) -> str:
        """The detected format's name."""

def open(
    path: _Path,
    format: str | None = None,
    *,
    npy_dtype: str | None = None,
    compression: str | None = None,
    mmap: bool = False,
    anonymous: bool = False,
) -> Source:
    """Opens a tensor file, directory, checkpoint or URL lazily; the format is detected."""

def load(
    path: _Path,
    format: str | None = None,
    *,
    npy_dtype: str | None = None,
    compression: str | None = None,
    mmap: bool = False,
    anonymous: bool = False,
) -> dict[str, Tensor]:
    """Reads every tensor of a file into a dict name -> Tensor."""

def save(
    path: _Path,
    tensors: Mapping[str, _Array],
    format: str | None = None,
    *,
    compression: str | None = None,
    metadata: dict[str, str] | None = None,
) -> None:
    """Writes a dict name -> tensor in the format `format` or the path names."""

def copy(
    src: _Path,
    dst: _Path,
    progress: bool | Callable[[int, int], object] = True,
    *,
    format: str | None = None,
    to: str | None = None,
    only: Sequence[str] | None = None,
    skip_unsupported: bool = False,
    npy_dtype: str | None = None,
    compression: str | None = None,
) -> _CopyReport:
    """Copies the tensors of `src` into a new file `dst`, as `tftensor convert`."""

def formats() -> list[tuple[str, list[str], bool]]:
    """[(name, extensions, writable)]: the formats this build reads."""

def list_variables(path: _Path) -> list[tuple[str, str, tuple[int, ...]]]:
    """[(name, dtype, shape)] of a checkpoint, like tf.train.list_variables."""

def read_records(path: _Path, compression: str | None = None) -> list[bytes]:
    """The raw records of a TFRecord file (compression detected when not given)."""

@final
class RecordFile:
    """A TFRecord file's records by number (a PyTorch map-style Dataset)."""

    def __new__(
        cls, path: _Path, index: _Path | Sequence[tuple[int, int]] | None = None, anonymous: bool = False
    ) -> RecordFile: ...
    def __len__(self) -> int: ...
    def __getitem__(self, i: int, /) -> bytes:
        """The record's bytes, both CRCs checked (IndexError out of range)."""
    def get_many(self, indices: Sequence[int]) -> list[bytes]:
        """The records at `indices`, read at once."""
    @property
    def index(self) -> list[tuple[int, int]]:
        """Each record's (offset, length), the 16 framing bytes included."""
    def save_index(self, path: _Path) -> None:
        """Writes the index as a DALI .idx file (a path or URL)."""
    def __reduce__(self) -> tuple[type[RecordFile], tuple[str, list[tuple[int, int]], bool]]: ...

# ------------------------------------------------- SavedModel, TensorBoard

@final
class SavedModel:
    """A SavedModel's signatures, without TensorFlow."""

    @property
    def signatures(self) -> dict[str, dict[str, _Signature]]:
        """Tag set -> signature key -> signature."""
    def show_all(self) -> str:
        """TF's `saved_model_cli show --all` text, up to "Concrete Functions"."""

def saved_model(path: _Path) -> SavedModel:
    """Opens a SavedModel directory (reads saved_model.pb, not the variables)."""

def read_events(path: _Path) -> list[_EventValue]:
    """Every summary value of a TensorBoard event file or log directory."""

@final
class SummaryWriter:
    """Writes TensorBoard logs as tf.summary does."""

    def __new__(cls, logdir: _Path) -> SummaryWriter: ...
    def add_scalar(self, tag: str, value: float, step: int) -> None:
        """A float32 scalar, as tf.summary.scalar."""
    def add_histogram(self, tag: str, values: Sequence[float], step: int, buckets: int = 30) -> None:
        """A histogram of `values` in TensorBoard's bucket format."""
    def add_text(self, tag: str, text: str, step: int) -> None:
        """Text, as tf.summary.text."""
    def flush(self) -> None:
        """Writes what is buffered to the file."""
    def close(self) -> None:
        """Flushes and closes the file."""

# ------------------------------------------------------------------ Arrow

@final
class ArrowArray:
    """An Arrow array (a tensor, or a batch as a struct) for __arrow_c_array__."""

    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[CapsuleType, CapsuleType]:
        """The Arrow PyCapsule protocol: (schema, array) capsules."""
    def __arrow_c_schema__(self) -> CapsuleType:
        """The schema capsule alone."""
    def __len__(self) -> int: ...

@final
class ArrowStream:
    """A stream of record batches for __arrow_c_stream__ (consumed once)."""

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> CapsuleType:
        """The Arrow PyCapsule protocol: an arrow_array_stream capsule."""

def tensor_to_arrow(tensor: Tensor) -> ArrowArray:
    """A tensor as an arrow.fixed_shape_tensor array, sharing its buffer."""

def tensor_from_arrow(obj: _ArrowArrayExportable) -> Tensor:
    """An Arrow array as a tensor that adopts its values buffer."""

def read_examples_arrow(
    paths: str | Sequence[str],
    spec: _FeatureSpecs | None = None,
    batch_size: int = 1024,
    compression: str = "",
    sequence: bool = False,
    *,
    context_features: _FeatureSpecs | None = None,
    sequence_features: _FeatureSpecs | None = None,
    schema: _ArrowSchemaExportable | None = None,
) -> ArrowStream:
    """Batches of the tf.train.Example records of files as an Arrow stream with one schema."""

def decode_examples(
    records: Sequence[bytes],
    spec: _FeatureSpecs | None = None,
    sequence: bool = False,
    *,
    context_features: _FeatureSpecs | None = None,
    sequence_features: _FeatureSpecs | None = None,
) -> ArrowArray:
    """One batch of serialized records as an Arrow struct array."""

# ------------------------------------------------------ deprecated aliases
# Each warns with DeprecationWarning at run time, with the same text.

@deprecated('tftensor.load_checkpoint(path) is deprecated; use tftensor.load(path, "checkpoint")')
def load_checkpoint(path: _Path) -> dict[str, Tensor]: ...
@deprecated('tftensor.save_checkpoint(path, t) is deprecated; use tftensor.save(path, t, "checkpoint")')
def save_checkpoint(path: _Path, tensors: Mapping[str, _Array]) -> None: ...
@deprecated("tftensor.load_npy(path) is deprecated; use tftensor.load(path)")
def load_npy(path: _Path, dtype: str | None = None) -> Tensor: ...
@deprecated('tftensor.save_npy(path, t) is deprecated; use tftensor.save(path, {"": t}, "npy")')
def save_npy(path: _Path, tensor: _Array) -> None: ...
@deprecated("tftensor.load_npz(path) is deprecated; use tftensor.load(path, npy_dtype=...)")
def load_npz(path: _Path, dtypes: dict[str, str] | None = None) -> dict[str, Tensor]: ...
@deprecated('tftensor.save_npz(path, t) is deprecated; use tftensor.save(path, t, "npz")')
def save_npz(path: _Path, tensors: Mapping[str, _Array], compressed: bool = False) -> None: ...
@deprecated("tftensor.load_safetensors(path) is deprecated; use tftensor.load(path)")
def load_safetensors(path: _Path) -> dict[str, Tensor]: ...
@deprecated("tftensor.save_safetensors(path, t) is deprecated; use tftensor.save(path, t)")
def save_safetensors(path: _Path, tensors: Mapping[str, _Array]) -> None: ...
@deprecated("tftensor.read_tensors(path) is deprecated; use tftensor.load(path).values()")
def read_tensors(path: _Path, compression: str | None = None) -> list[Tensor]: ...
@deprecated('tftensor.write_tensors(path, ts) is deprecated; use tftensor.save(path, {"0": t, ...})')
def write_tensors(path: _Path, tensors: Iterable[_Array], compression: str = "") -> None: ...
@deprecated(
    'tftensor.read_examples(path) is deprecated; use tftensor.load(path) (features named "RECORD/FEATURE") '
    "or tftensor.read_examples_arrow(path)"
)
def read_examples(path: _Path, compression: str | None = None) -> list[dict[str, Tensor]]: ...

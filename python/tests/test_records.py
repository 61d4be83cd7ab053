"""RecordFile (TFRecord random access) and reading from S3: records by
number against the fixture made by PyPI's `tfrecord` package, pickling
for worker processes, PyTorch's DataLoader and Grain when installed, and
s3:// reads against moto on 127.0.0.1 (skipped without moto)."""

import os
import pathlib
import pickle
import socket
import struct
from collections.abc import Iterator
from typing import Any

import pytest

import tftensor

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"
FIXTURE = DATA / "tfrecord" / "idx" / "records.tfrecord"
IDX = DATA / "tfrecord" / "idx" / "records.idx"


def records(path: pathlib.Path) -> list[bytes]:
    """The records of an uncompressed TFRecord file, read plainly."""
    out: list[bytes] = []
    data, pos = path.read_bytes(), 0
    while pos < len(data):
        (n,) = struct.unpack_from("<Q", data, pos)
        out.append(data[pos + 12 : pos + 12 + n])
        pos += n + 16
    return out


def test_records_by_number() -> None:
    want = records(FIXTURE)
    for f in [tftensor.RecordFile(FIXTURE), tftensor.RecordFile(str(FIXTURE), index=str(IDX))]:
        assert len(f) == len(want)
        assert [f[i] for i in range(len(f))] == want
        assert f[-1] == want[-1]
        assert f.get_many([3, 0]) == [want[3], want[0]]
        with pytest.raises(IndexError):
            f[len(f)]
        assert "records" in repr(f)
    g = pickle.loads(pickle.dumps(tftensor.RecordFile(FIXTURE)))
    assert g[4] == want[4]


def test_index_files_and_gzip(tmp_path: pathlib.Path) -> None:
    f = tftensor.RecordFile(FIXTURE)
    f.save_index(tmp_path / "a.idx")
    assert (tmp_path / "a.idx").read_text() == IDX.read_text()
    with pytest.raises(ValueError, match="random access"):
        tftensor.RecordFile(DATA / "tfrecord" / "raw.gzip.tfrecord")


def test_torch_dataloader() -> None:
    torch = pytest.importorskip("torch")
    f = tftensor.RecordFile(FIXTURE)
    loader = torch.utils.data.DataLoader(f, batch_size=None, shuffle=True, num_workers=2)
    assert sorted(bytes(b) for b in loader) == sorted(records(FIXTURE))


def test_grain_source() -> None:
    grain = pytest.importorskip("grain")
    f = tftensor.RecordFile(FIXTURE)
    ds = grain.MapDataset.source(f).shuffle(seed=1)
    assert sorted(ds[i] for i in range(len(f))) == sorted(records(FIXTURE))


@pytest.fixture(scope="module")
def s3() -> Iterator[Any]:
    """moto on 127.0.0.1, with the environment pointing at it."""
    server = pytest.importorskip("moto.server")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    moto = server.ThreadedMotoServer(ip_address="127.0.0.1", port=port)
    moto.start()
    env = {
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_REGION": "us-east-1",
        "AWS_EC2_METADATA_DISABLED": "true",
    }
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    import boto3

    client = boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"])
    client.create_bucket(Bucket="tftensor-py")
    yield client
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    moto.stop()


def test_record_files_and_tensors_in_s3(s3: Any) -> None:
    s3.put_object(Bucket="tftensor-py", Key="r/records.tfrecord", Body=FIXTURE.read_bytes())
    f = tftensor.RecordFile("s3://tftensor-py/r/records.tfrecord")
    assert [f[i] for i in range(len(f))] == records(FIXTURE)
    f.save_index("s3://tftensor-py/r/records.tfrecord.idx")
    body = s3.get_object(Bucket="tftensor-py", Key="r/records.tfrecord.idx")["Body"].read()
    assert body == IDX.read_bytes()
    g = tftensor.RecordFile("s3://tftensor-py/r/records.tfrecord", index="s3://tftensor-py/r/records.tfrecord.idx")
    assert g[5] == f[5]
    with pytest.raises(FileNotFoundError, match="s3://tftensor-py/r/none.tfrecord"):
        tftensor.RecordFile("s3://tftensor-py/r/none.tfrecord")


def test_examples_arrow_from_s3(s3: Any) -> None:
    pa = pytest.importorskip("pyarrow")
    for name in ["examples.tfrecord", "examples.gzip.tfrecord"]:
        s3.put_object(Bucket="tftensor-py", Key=f"ex/{name}", Body=(DATA / "tfrecord" / name).read_bytes())
    local = pa.RecordBatchReader.from_stream(tftensor.read_examples_arrow(str(DATA / "tfrecord" / "examples.tfrecord"))).read_all()
    remote = pa.RecordBatchReader.from_stream(tftensor.read_examples_arrow("s3://tftensor-py/ex/examples.tfrecord")).read_all()
    assert remote.equals(local)
    gz = tftensor.read_examples_arrow("s3://tftensor-py/ex/*.gzip.tfrecord", compression="GZIP")
    assert pa.RecordBatchReader.from_stream(gz).read_all().equals(local)

"""What reading one tensor of an s3:// file costs, counted by a proxy in
front of moto on 127.0.0.1 (skipped without moto): its bytes plus at most
1 MiB, whatever else the file holds (issue 38's proof)."""

import http.client
import os
import socket
import threading
from collections.abc import Iterator
from typing import Any
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

import tftensor

MIB = 1 << 20
# Four float32 tensors of 4 MiB each.
N = MIB
TENSORS = {f"layer{i}/kernel": np.random.default_rng(i).standard_normal(N, dtype=np.float32) for i in range(4)}


class CountingProxy:
    """Passes each request on to 127.0.0.1:`upstream` and notes its method,
    target, Range, status and the bytes sent back (head and body)."""

    def __init__(self, upstream: int) -> None:
        self.seen: list[tuple[str, str, str | None, int, int]] = []
        lock = threading.Lock()
        seen = self.seen

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def relay(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() != "connection"}
                up = http.client.HTTPConnection("127.0.0.1", upstream, timeout=60)
                up.request(self.command, self.path, body=body, headers=headers)
                r = up.getresponse()
                data = r.read()
                up.close()
                head = [(k, v) for k, v in r.getheaders() if k.lower() not in ("transfer-encoding", "connection", "content-length")]
                # HEAD answers keep the object's length; others say the body's.
                size = r.getheader("Content-Length") if self.command == "HEAD" else str(len(data))
                head.append(("Content-Length", size or "0"))
                sent = len(f"HTTP/1.1 {r.status} {r.reason}\r\n") + sum(len(k) + len(v) + 4 for k, v in head) + 2 + len(data)
                # Noted before it is answered: the reader, once answered,
                # sees it counted.
                with lock:
                    seen.append((self.command, self.path, self.headers.get("Range"), r.status, sent))
                self.send_response_only(r.status, r.reason)
                for k, v in head:
                    self.send_header(k, v)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = relay

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def take(self) -> list[tuple[str, str, str | None, int, int]]:
        out = list(self.seen)
        self.seen.clear()
        return out

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CountingProxy]:
    """moto on 127.0.0.1 holding a safetensors file and a checkpoint of
    TENSORS; the environment points at a counting proxy in front of it."""
    server = pytest.importorskip("moto.server")
    boto3 = pytest.importorskip("boto3")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    moto = server.ThreadedMotoServer(ip_address="127.0.0.1", port=port)
    moto.start()
    keys = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing", "region_name": "us-east-1"}
    client = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", **keys)
    client.create_bucket(Bucket="counted")
    tmp = tmp_path_factory.mktemp("counted")
    tftensor.save(tmp / "model.safetensors", TENSORS)
    tftensor.save(tmp / "ckpt" / "model", TENSORS)
    for f in [tmp / "model.safetensors", *sorted((tmp / "ckpt").iterdir())]:
        client.upload_file(str(f), "counted", str(f.relative_to(tmp)))
    proxy = CountingProxy(port)
    env = {
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{proxy.port}",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_REGION": "us-east-1",
        "AWS_EC2_METADATA_DISABLED": "true",
    }
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    yield proxy
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    proxy.close()
    moto.stop()


@pytest.mark.parametrize("url", ["s3://counted/model.safetensors", "s3://counted/ckpt/model"])
def test_one_tensor_costs_its_bytes_and_at_most_one_mib_more(counted: CountingProxy, url: str) -> None:
    counted.take()
    src = tftensor.open(url)
    assert src.keys() == sorted(TENSORS)
    listed = counted.take()
    got = np.asarray(src["layer2/kernel"])
    assert np.array_equal(got, TENSORS["layer2/kernel"])
    read = counted.take()
    total = sum(s[4] for s in listed + read)
    print(f"{url}: open {len(listed)} requests, the tensor {len(read)}; {total} bytes: {listed + read}")
    assert read, "the tensor was read through the proxy"
    assert total <= TENSORS["layer2/kernel"].nbytes + MIB, listed + read
    # Listing alone stays well under 1 MiB.
    assert sum(s[4] for s in listed) < MIB, listed

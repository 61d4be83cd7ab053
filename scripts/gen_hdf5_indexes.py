#!/usr/bin/env python3
"""Makes the layout-v4 chunk index fixtures (tests/data/keras/idx_*.h5) and
adds their entries to expected.json (same form as scripts/gen_keras.py).

Run with the TF venv:  .venv-check-tf/bin/python scripts/gen_hdf5_indexes.py

h5py with libver="latest" picks the chunk index from the dataspace
(H5D__layout_set_latest_indexing): one unlimited dimension -> extensible
array (4); more than one -> v2 B-tree (5); none -> fixed array (3), or
implicit (2) with early allocation and no filters, or single chunk (1)
when one chunk covers the maximum shape. Fixed arrays of more than 1024
chunks are paged.
"""
import json
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_keras import describe_file, path  # noqa: E402


def low_level(f, name, shape, maxshape, chunks, dtype, data):
    """A dataset with early allocation (h5py's high level never asks for it)."""
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_chunk(chunks)
    dcpl.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
    sid = h5py.h5s.create_simple(shape, maxshape)
    did = h5py.h5d.create(f.id, name.encode(), dtype, sid, dcpl)
    did.write(h5py.h5s.ALL, h5py.h5s.ALL, data)


def main():
    with h5py.File(path("idx_earray.h5"), "w", libver="latest") as f:
        # One unlimited dimension: an extensible array.
        f.create_dataset("gzip", data=np.arange(30 * 3, dtype="int32").reshape(30, 3),
                         maxshape=(None, 3), chunks=(1, 3), compression="gzip", shuffle=True)
        f.create_dataset("plain", data=np.arange(7 * 2, dtype="int16").reshape(7, 2),
                         maxshape=(None, 2), chunks=(1, 2))
        # The unlimited dimension is not the first: chunks are numbered with it moved first.
        f.create_dataset("dim1", data=np.arange(3 * 10, dtype="float32").reshape(3, 10),
                         maxshape=(3, None), chunks=(2, 1))
        # 250 chunks: past the index block's data blocks into a super block (EASB).
        f.create_dataset("super", data=(np.arange(250) % 251).astype("uint8"),
                         maxshape=(None,), chunks=(1,))
        # Grown after writing, one row never written (reads as the fill value 0).
        d = f.create_dataset("resized", data=np.ones((2, 2), dtype="float64"),
                             maxshape=(None, 2), chunks=(1, 2), compression="gzip")
        d.resize((5, 2))
        d[4] = [7.5, -1.0]
    with h5py.File(path("idx_btree2.h5"), "w", libver="latest") as f:
        # Two unlimited dimensions: a v2 B-tree (records of type 10 / 11).
        f.create_dataset("plain", data=np.arange(5 * 6, dtype="float64").reshape(5, 6),
                         maxshape=(None, None), chunks=(2, 4))
        f.create_dataset("gzip", data=np.arange(5 * 6, dtype="int64").reshape(5, 6) - 9,
                         maxshape=(None, None), chunks=(2, 4), compression="gzip")
        # 144 chunks > 84 records per leaf: a tree of depth 1.
        f.create_dataset("deep", data=(np.arange(144) * 7 % 256).astype("uint8").reshape(12, 12),
                         maxshape=(None, None), chunks=(1, 1))
    with h5py.File(path("idx_fixed.h5"), "w", libver="latest") as f:
        # A fixed maximum larger than the shape: chunks are numbered over the maximum.
        f.create_dataset("fa_max", data=np.arange(4 * 3, dtype="int8").reshape(4, 3),
                         maxshape=(9, 3), chunks=(2, 2))
        f.create_dataset("fa_gzip", data=np.arange(4 * 3, dtype="uint16").reshape(4, 3),
                         maxshape=(9, 5), chunks=(2, 2), compression="gzip")
        # Early allocation, no filters: implicit (chunk i at address + i * chunk bytes).
        low_level(f, "implicit", (5,), (8,), (2,), h5py.h5t.STD_U16LE, np.arange(5, dtype="<u2") + 100)
        low_level(f, "implicit_2d", (3, 5), (4, 6), (2, 3), h5py.h5t.IEEE_F32LE,
                  np.arange(15, dtype="<f4").reshape(3, 5) / 4)
    with h5py.File(path("idx_paged.h5"), "w", libver="latest") as f:
        # 1030 chunks > 2^10: a paged fixed array; page 1 (chunks 1024..) never written.
        d = f.create_dataset("paged", shape=(1030,), dtype="uint8", chunks=(1,))
        d[:1000] = (np.arange(1000) % 253).astype("uint8")
    with open(path("expected.json")) as fh:
        expected = json.load(fh)
    for name in ["idx_earray.h5", "idx_btree2.h5", "idx_fixed.h5", "idx_paged.h5"]:
        expected[name] = {"datasets": describe_file(path(name))}
        print(f"{name}: {os.path.getsize(path(name))} bytes, {len(expected[name]['datasets'])} datasets")
    with open(path("expected.json"), "w") as fh:
        json.dump(expected, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()

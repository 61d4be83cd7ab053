"""Runs last (file order): after every other test, no DLPack export of this
module is still alive once garbage is collected."""

import gc

import tftensor


def test_no_export_outlives_its_consumers() -> None:
    gc.collect()
    assert tftensor.live_exports() == 0

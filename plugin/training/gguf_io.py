"""A small GGUF reader and LoRA-adapter writer in numpy (GGUF v3, little-endian).

Why our own and not the ``gguf`` package: training needs only (a) the metadata and the
tensors of one llama-architecture model, dequantized to float32, and (b) writing float32
LoRA tensors; the format for both is a few lines (llama.cpp ``docs/gguf.md``), and keeping it
here means training runs with torch + llama-cpp-python alone. Supported tensor types: F32,
F16, BF16, Q4_0, Q4_1, Q8_0 (the shipped SmolLM2 is Q4_1 with a Q8_0 embedding);
any other type raises ``InputError`` naming it.
"""
from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from ..util.io import atomic_write_bytes

MAGIC = b"GGUF"
VERSION = 3
ALIGNMENT = 32
# metadata value types
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "B", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9
# ggml tensor types: (name, elements per block, bytes per block)
GGML_TYPES = {0: ("F32", 1, 4), 1: ("F16", 1, 2), 30: ("BF16", 1, 2), 2: ("Q4_0", 32, 18),
              3: ("Q4_1", 32, 20), 8: ("Q8_0", 32, 34)}
F32 = 0


class GGUFFile:
    """Metadata (``kv``) and tensor directory of one GGUF; ``tensor(name)`` dequantizes."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        try:
            self._data = np.memmap(self.path, dtype=np.uint8, mode="r")
        except (OSError, ValueError) as e:
            raise InputError(f"cannot read GGUF {path}: {e}") from e
        self._pos = 0
        if bytes(self._data[:4]) != MAGIC:
            raise InputError(f"{path} is not a GGUF file")
        version, n_tensors, n_kv = struct.unpack_from("<IQQ", self._data, 4)
        if version not in (2, 3):
            raise InputError(f"{path}: GGUF version {version} not supported")
        self._pos = 24
        self.kv: dict[str, Any] = {}
        for _ in range(n_kv):
            key = self._string()
            self.kv[key] = self._value(self._u32())
        self.tensors: dict[str, tuple[tuple[int, ...], int, int]] = {}  # name -> (shape, type, offset)
        for _ in range(n_tensors):
            name = self._string()
            dims = [self._u64() for _ in range(self._u32())]
            ttype, offset = self._u32(), self._u64()
            self.tensors[name] = (tuple(reversed(dims)), ttype, offset)  # numpy order: rows last dim
        align = int(self.kv.get("general.alignment", ALIGNMENT))
        self._base = -(-self._pos // align) * align

    # -- header parsing ----------------------------------------------------------------------
    def _take(self, fmt: str) -> Any:
        (v,) = struct.unpack_from(fmt, self._data, self._pos)
        self._pos += struct.calcsize(fmt)
        return v

    def _u32(self) -> int:
        return self._take("<I")

    def _u64(self) -> int:
        return self._take("<Q")

    def _string(self) -> str:
        n = self._u64()
        s = bytes(self._data[self._pos:self._pos + n]).decode("utf-8", errors="replace")
        self._pos += n
        return s

    def _value(self, vtype: int) -> Any:
        if vtype == _STRING:
            return self._string()
        if vtype == _ARRAY:
            itype, n = self._u32(), self._u64()
            if itype in _SCALARS:  # numeric arrays are read in one go (token scores, types)
                dt = np.dtype("<" + _SCALARS[itype])
                arr = np.frombuffer(self._data, dtype=dt, count=n, offset=self._pos).copy()
                self._pos += n * dt.itemsize
                return arr
            return [self._value(itype) for _ in range(n)]
        if vtype not in _SCALARS:
            raise InputError(f"{self.path}: unknown GGUF metadata type {vtype}")
        v = self._take("<" + _SCALARS[vtype])
        return bool(v) if vtype == 7 else v

    # -- tensors -----------------------------------------------------------------------------
    def type_name(self, name: str) -> str:
        """The GGML type name of tensor ``name`` (e.g. Q4_1, F32)."""
        t = self.tensors[name][1]
        return GGML_TYPES[t][0] if t in GGML_TYPES else f"type {t}"

    def tensor(self, name: str) -> np.ndarray:
        """The tensor ``name`` as float32 in numpy order (a weight is ``(out, in)``)."""
        shape, ttype, offset = self.tensors[name]
        if ttype not in GGML_TYPES:
            raise InputError(f"{self.path}: tensor {name} has unsupported ggml type {ttype}")
        kind, per_block, nbytes = GGML_TYPES[ttype]
        count = int(np.prod(shape))
        raw = self._data[self._base + offset: self._base + offset + count // per_block * nbytes]
        return _dequantize(kind, np.asarray(raw), count).reshape(shape)


def _dequantize(kind: str, raw: np.ndarray, count: int) -> np.ndarray:
    if kind == "F32":
        return raw.view("<f4").astype(np.float32)
    if kind == "F16":
        return raw.view("<f2").astype(np.float32)
    if kind == "BF16":
        return (raw.view("<u2").astype(np.uint32) << 16).view(np.float32)
    per_block = {"Q4_0": 18, "Q4_1": 20, "Q8_0": 34}[kind]
    blocks = raw.reshape(-1, per_block)
    d = blocks[:, :2].copy().view("<f2").astype(np.float32)
    if kind == "Q8_0":
        return (d * blocks[:, 2:].copy().view(np.int8).astype(np.float32)).reshape(-1)
    # 4-bit: element j < 16 is the low nibble of byte j, element 16 + j the high nibble
    qs = blocks[:, -16:]
    q = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.float32)
    if kind == "Q4_0":
        return (d * (q - 8.0)).reshape(-1)
    m = blocks[:, 2:4].copy().view("<f2").astype(np.float32)
    return (d * q + m).reshape(-1)


# ---------------------------------------------------------------------------- writing
def _pack_string(s: str) -> bytes:
    b = s.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def _pack_value(v: Any) -> bytes:
    if isinstance(v, str):
        return struct.pack("<I", _STRING) + _pack_string(v)
    if isinstance(v, bool):
        return struct.pack("<IB", 7, int(v))
    if isinstance(v, int):
        return struct.pack("<Iq", 11, v)
    if isinstance(v, float):
        return struct.pack("<If", 6, v)
    raise TypeError(f"unsupported GGUF metadata value {v!r}")


def write_gguf(path: str | os.PathLike, kv: dict[str, Any], tensors: dict[str, np.ndarray]) -> Path:
    """Write ``kv`` metadata and float32 ``tensors`` (numpy order) as one GGUF file, atomically."""
    header = [MAGIC, struct.pack("<IQQ", VERSION, len(tensors), len(kv))]
    header += [_pack_string(k) + _pack_value(v) for k, v in kv.items()]
    blobs, offset = [], 0
    for name, arr in tensors.items():
        a = np.ascontiguousarray(arr, dtype="<f4")
        dims = tuple(reversed(a.shape))
        header.append(_pack_string(name) + struct.pack("<I", len(dims)) + struct.pack(f"<{len(dims)}Q", *dims)
                      + struct.pack("<IQ", F32, offset))
        blob = a.tobytes()
        blob += b"\0" * (-len(blob) % ALIGNMENT)
        blobs.append(blob)
        offset += len(blob)
    head = b"".join(header)
    head += b"\0" * (-len(head) % ALIGNMENT)
    return atomic_write_bytes(path, head + b"".join(blobs))


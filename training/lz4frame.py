"""LZ4 frames for the training scripts: python-lz4's `lz4.frame` where it is installed (Debian's
python3-lz4), else the same few calls over liblz4 itself through ctypes, the library the engine
links (a Python without python-lz4, such as a GPU machine's PyTorch image, can still read
self-play shards and write networks). MOKU_LZ4=ctypes forces the ctypes form (the tests run
both); MOKU_LIBLZ4 names the library file when the system's loader cannot find it.

    compress(data, compression_level=0, content_checksum=False) -> bytes (one frame)
    decompress(data) -> bytes (every frame of data; a truncated or corrupt one raises RuntimeError)
    FrameDecompressor().decompress(data) -> the content of the first frame of data; then .eof
        (the frame was complete) and .unused_data (the bytes after it)
"""

import ctypes
import ctypes.util
import os

BACKEND = None

if os.environ.get("MOKU_LZ4") != "ctypes":
    try:
        import lz4.frame as _lz4

        BACKEND = "python-lz4"
    except ImportError:
        pass

if BACKEND == "python-lz4":

    def compress(data, compression_level=0, content_checksum=False):
        return _lz4.compress(data, compression_level=compression_level, content_checksum=content_checksum)

    def decompress(data):
        return _lz4.decompress(data)

    FrameDecompressor = _lz4.LZ4FrameDecompressor

else:
    BACKEND = "ctypes"
    _name = os.environ.get("MOKU_LIBLZ4") or ctypes.util.find_library("lz4") or "liblz4.so.1"
    try:
        _L = ctypes.CDLL(_name)
    except OSError as e:
        raise ImportError(f"lz4frame: neither python-lz4 nor liblz4 ({_name}) can be loaded: {e}") from e
    _sz = ctypes.c_size_t
    _vp = ctypes.c_void_p

    class _FrameInfo(ctypes.Structure):  # LZ4F_frameInfo_t (lz4frame.h)
        _fields_ = [("blockSizeID", ctypes.c_int), ("blockMode", ctypes.c_int),
                    ("contentChecksumFlag", ctypes.c_int), ("frameType", ctypes.c_int),
                    ("contentSize", ctypes.c_ulonglong), ("dictID", ctypes.c_uint),
                    ("blockChecksumFlag", ctypes.c_int)]

    class _Prefs(ctypes.Structure):  # LZ4F_preferences_t
        _fields_ = [("frameInfo", _FrameInfo), ("compressionLevel", ctypes.c_int),
                    ("autoFlush", ctypes.c_uint), ("favorDecSpeed", ctypes.c_uint),
                    ("reserved", ctypes.c_uint * 3)]

    for _fn, _res, _args in (
        ("LZ4F_isError", ctypes.c_uint, [_sz]),
        ("LZ4F_getErrorName", ctypes.c_char_p, [_sz]),
        ("LZ4F_createDecompressionContext", _sz, [ctypes.POINTER(_vp), ctypes.c_uint]),
        ("LZ4F_freeDecompressionContext", _sz, [_vp]),
        ("LZ4F_decompress", _sz, [_vp, _vp, ctypes.POINTER(_sz), _vp, ctypes.POINTER(_sz), _vp]),
        ("LZ4F_compressFrameBound", _sz, [_sz, ctypes.POINTER(_Prefs)]),
        ("LZ4F_compressFrame", _sz, [_vp, _sz, _vp, _sz, ctypes.POINTER(_Prefs)]),
    ):
        getattr(_L, _fn).restype = _res
        getattr(_L, _fn).argtypes = _args
    _VERSION = 100  # LZ4F_VERSION

    def _check(code):
        if _L.LZ4F_isError(code):
            raise RuntimeError("LZ4F_" + _L.LZ4F_getErrorName(code).decode())
        return code

    def compress(data, compression_level=0, content_checksum=False):
        data = bytes(data)
        p = _Prefs()
        p.compressionLevel = compression_level
        p.frameInfo.contentChecksumFlag = 1 if content_checksum else 0
        cap = _L.LZ4F_compressFrameBound(len(data), ctypes.byref(p))
        dst = ctypes.create_string_buffer(cap)
        n = _check(_L.LZ4F_compressFrame(dst, cap, data, len(data), ctypes.byref(p)))
        return dst.raw[:n]

    class FrameDecompressor:
        def __init__(self):
            self.eof = False
            self.unused_data = b""

        def decompress(self, data):
            data = bytes(data)
            ctx = _vp()
            _check(_L.LZ4F_createDecompressionContext(ctypes.byref(ctx), _VERSION))
            cap = 1 << 20
            dst = ctypes.create_string_buffer(cap)
            src = ctypes.cast(ctypes.c_char_p(data), _vp).value or 0
            out, off = [], 0
            try:
                while True:
                    dsz, ssz = _sz(cap), _sz(len(data) - off)
                    hint = _check(_L.LZ4F_decompress(ctx, dst, ctypes.byref(dsz), src + off, ctypes.byref(ssz), None))
                    off += ssz.value
                    out.append(dst.raw[: dsz.value])
                    if hint == 0:  # the frame is complete (and its checksum matched)
                        self.eof = True
                        self.unused_data = data[off:]
                        break
                    if off >= len(data) and dsz.value < cap:  # input used up mid-frame
                        break
            finally:
                _L.LZ4F_freeDecompressionContext(ctx)
            return b"".join(out)

    def decompress(data):
        data, out = bytes(data), []
        while data:
            d = FrameDecompressor()
            out.append(d.decompress(data))
            if not d.eof:
                raise RuntimeError("LZ4F_truncated frame")
            data = d.unused_data
        return b"".join(out)

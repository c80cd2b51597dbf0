"""plinth: GPU programs written once, run on CUDA, HIP, OpenCL and Level Zero devices.

A thin binding over the C++ library: behaviour is defined there (see the C++ headers), and
this package converts and forwards. Errors derive from plinth.Error.
"""

try:
    import numpy  # noqa: F401  (the extension converts through numpy from its first call)
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("plinth needs numpy (>= 2.1): pip install numpy") from error

from ._plinth import *  # noqa: F401,F403
from ._plinth import __version__  # noqa: F401

"""plinth: GPU programs written once, run on CUDA, HIP, OpenCL and Level Zero devices.

A thin binding over the C++ library: behaviour is defined there (see the C++ headers), and
this package converts and forwards. Errors derive from plinth.Error.
"""

from ._plinth import *  # noqa: F401,F403
from ._plinth import __version__  # noqa: F401

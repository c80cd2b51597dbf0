#!/usr/bin/env python3
"""Tests of bench/peer/run without a GPU: its options, its tables fed with made-up results,
CuPy's side of every workload run on a stand-in for CuPy made of numpy (data, calls and
checks, which the GPU machine alone runs for real), and, where $PLINTH_BENCH_PEER names
plinth-bench-peer, plinth's side of every workload on OpenCL (PoCL) with small sizes, its
bytes per call agreeing with CuPy's side's.

    python3 tests/bench/peer_run_test.py [-v]
"""

import importlib.machinery
import importlib.util
import os
import sys
import time
import types
import unittest

try:
    import numpy
except ImportError:  # the stand-in for CuPy needs numpy; the other tests do not
    numpy = None

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_run():
    """bench/peer/run as a module (a script without the .py suffix)."""
    path = os.path.join(ROOT, "bench", "peer", "run")
    loader = importlib.machinery.SourceFileLoader("peer_run", path)
    spec = importlib.util.spec_from_loader("peer_run", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


run = load_run()

# Small sizes for every run here.
SMALL = ["--large", "4096", "--small", "256", "--matrix", "128", "--reps", "2", "--warmup", "1",
         "--batch-large", "2", "--batch-small", "3", "--sort", "5000", "--gemm", "64"]


def fake_cupy():
    """The part of CuPy that bench/peer/run uses, made of numpy, as CuPy computes it."""

    class FakeArray(numpy.ndarray):
        def get(self):
            return numpy.asarray(self)

        @property
        def data(self):
            return Pointer(self)

    class Pointer:
        def __init__(self, array):
            self.array = array

        def copy_from_device_async(self, src, size, stream=None):
            assert size == src.array.nbytes == self.array.nbytes
            numpy.copyto(self.array, src.array)

    def wrap(value):
        return numpy.asarray(value).view(FakeArray)

    class ElementwiseKernel:
        def __init__(self, in_params, out_params, operation, name):
            self.name = name

        def __call__(self, x, y, z):
            if self.name == "peer_axpy_into":
                z[...] = numpy.float32(2.5) * x + y
            elif self.name == "peer_expr_into":
                z[...] = numpy.sin(x) * numpy.exp(y) + x * y
            else:
                raise AssertionError("unknown kernel " + self.name)
            return z

    class Event:
        def record(self, stream=None):
            self.at = time.perf_counter()

        def synchronize(self):
            pass

    class Stream:
        def synchronize(self):
            pass

    stream = Stream()
    cuda = types.SimpleNamespace(
        Device=lambda: types.SimpleNamespace(id=0),
        Event=Event,
        get_current_stream=lambda: stream,
        get_elapsed_time=lambda start, end: (end.at - start.at) * 1e3,
        runtime=types.SimpleNamespace(getDeviceCount=lambda: 1,
                                      getDeviceProperties=lambda i: {"name": b"Fake GPU"}))
    generator = numpy.random.default_rng(29)
    random = types.SimpleNamespace(
        random=lambda n, dtype: wrap(generator.random(n, dtype=dtype)),
        randint=lambda low, high, n, dtype: wrap(generator.integers(low, high, n, dtype=dtype)),
        default_rng=lambda seed: types.SimpleNamespace(
            random=lambda n, dtype: wrap(numpy.random.default_rng(seed).random(n, dtype=dtype)),
            integers=lambda low, high, n, dtype: wrap(
                numpy.random.default_rng(seed).integers(low, high, n, dtype=dtype))))
    cupy = types.SimpleNamespace(
        __version__="0.0-fake", cuda=cuda, float32=numpy.float32, float64=numpy.float64,
        int32=numpy.int32, int64=numpy.int64, random=random,
        # Issue 30.
        float16=numpy.float16, uint16=numpy.uint16,
        concatenate=lambda arrays: wrap(numpy.concatenate(arrays)),
        sort=lambda a: wrap(numpy.sort(a)),
        argsort=lambda a: wrap(numpy.argsort(a, kind="stable")),
        nonzero=numpy.nonzero,
        ElementwiseKernel=ElementwiseKernel,
        fuse=lambda kernel_name: (lambda f: (lambda *a: wrap(f(*a)))),
        ones=lambda n, dtype: wrap(numpy.ones(n, dtype)),
        zeros=lambda n, dtype: wrap(numpy.zeros(n, dtype)),
        full=lambda n, v, dtype: wrap(numpy.full(n, v, dtype)),
        empty=lambda shape, dtype: wrap(numpy.empty(shape, dtype)),
        arange=lambda n, dtype=None: wrap(numpy.arange(n, dtype=dtype)),
        sum=lambda a, axis=None: wrap(numpy.sum(a, axis=axis)),
        max=lambda a: wrap(numpy.max(a)),
        dot=lambda a, b: wrap(numpy.dot(a, b)),
        ascontiguousarray=lambda a: wrap(numpy.ascontiguousarray(a)),
        # Issue 29.
        histogram=lambda a, bins, range: tuple(wrap(v) for v in numpy.histogram(a, bins, range)),
        argmax=lambda a: wrap(numpy.argmax(a)),
        count_nonzero=lambda a: wrap(numpy.count_nonzero(a)),
        cumsum=lambda a: wrap(numpy.cumsum(a)),
        # Issue 30.
        clip=lambda a, lo, hi: wrap(numpy.clip(a, lo, hi)),
        maximum=lambda a, b: wrap(numpy.maximum(a, b)),
        # Issue 30: CuPy's take wraps out-of-range indices.
        take=lambda a, i: wrap(numpy.take(a, i, mode="wrap")),
        # Issue 30: reductions.
        prod=lambda a: wrap(numpy.prod(a)),
        any=lambda a: wrap(numpy.any(a)),
        mean=lambda a: wrap(numpy.mean(a)),
        var=lambda a: wrap(numpy.var(a)))
    return cupy


def record(workload, args, seconds, impl="plinth"):
    """A made-up result of `workload` taking `seconds` a call (device and host time)."""
    return {"impl": impl, "kind": "workload", "workload": workload,
            "measure": run.measure_of(workload), "bytes": run.bytes_of(workload, args),
            "seconds": seconds, "best_seconds": seconds, "host_seconds": seconds,
            "pool_misses_per_call": 0, "host_allocs_per_call": 0}


def row_of(text, workload):
    """The cells of `workload`'s row in a table printed by run."""
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if cells[0] == workload:
            return cells
    raise AssertionError("no row %s in:\n%s" % (workload, text))


class Options(unittest.TestCase):
    def test_defaults_cover_every_workload_and_the_issue_sizes(self):
        args = run.parse_args(["--binary", "/nonexistent"])
        self.assertEqual(args.workloads, run.WORKLOADS)
        self.assertEqual(len(run.WORKLOADS), 33)
        self.assertEqual(run.bytes_of("matmul", args), 2 * 4096 ** 3)  # FLOPs: 4096^3 products
        self.assertEqual(run.bytes_of("f16_fma", args), 8 << 28)  # float16: 4 arrays of 2 bytes
        self.assertEqual(args.sort, 1 << 26)
        self.assertEqual(run.bytes_of("argsort_f32", args), 12 << 26)
        self.assertEqual((args.large, args.matrix, args.cube), (1 << 28, 16384, (256, 256, 4096)))
        # The cube holds as many float32 as the matrix: 1 GiB each.
        self.assertEqual(run.bytes_of("sum_3d_two_axes", args), run.bytes_of("sum_axis0", args))
        self.assertEqual(run.bytes_of("sum_axis1", args), 1 << 30)

    def test_cube_follows_the_matrix_unless_given(self):
        self.assertEqual(run.parse_args(["--matrix", "256"]).cube, (4, 4, 4096))
        self.assertEqual(run.parse_args(["--matrix", "10"]).cube, (1, 1, 4096))
        self.assertEqual(run.parse_args(["--cube", "2x3x5"]).cube, (2, 3, 5))

    def test_bad_options_are_refused(self):
        for argv in (["--workloads", "sum,nope"], ["--cube", "2x3"], ["--cube", "2x0x3"],
                     ["--matrix", "0"], ["--cupy-only", "--also-api", "opencl"]):
            with self.assertRaises(SystemExit, msg=argv):
                sys.stderr, saved = open(os.devnull, "w"), sys.stderr
                try:
                    run.parse_args(argv)
                finally:
                    sys.stderr.close()
                    sys.stderr = saved

    def test_plinth_gets_the_same_sizes_and_the_api(self):
        args = run.parse_args(SMALL + ["--binary", "peer", "--workloads", "sum,transpose"])
        command = run.plinth_command(args, "opencl")
        self.assertEqual(command[0], "peer")
        options = dict(zip(command[1::2], command[2::2]))
        self.assertEqual(options["--matrix"], "128")
        self.assertEqual(options["--cube"], "2x2x4096")
        self.assertEqual(options["--workloads"], "sum,transpose")
        self.assertEqual(command[-2:], ["--api", "opencl"])


class Tables(unittest.TestCase):
    def setUp(self):
        self.args = run.parse_args(SMALL + ["--binary", "/nonexistent"])

    def test_ratios_targets_and_the_copy_column(self):
        args = self.args
        plinth = {w: record(w, args, 1.0) for w in args.workloads}
        cupy = {w: record(w, args, 2.0, "cupy") for w in args.workloads}
        plinth["transpose"] = record("transpose", args, 4.0)  # half CuPy's rate
        plinth["device_copy"] = record("device_copy", args, 0.5)
        text = run.table(args, plinth, cupy, [])
        cells = row_of(text, "sum")
        self.assertEqual(cells[4], "2.000")  # plinth/CuPy, rates
        self.assertEqual(cells[5], ">= 1.00 ok")
        # sum moves half the bytes of device_copy in twice its time.
        self.assertEqual(cells[6], "%.3f" % (run.bytes_of("sum", args) /
                                             run.bytes_of("device_copy", args) * 0.5))
        self.assertEqual(row_of(text, "transpose")[4], "0.500")
        self.assertEqual(row_of(text, "transpose")[5], ">= 1.00 MISSED")
        # The latency row: a ratio of times, lower is better.
        self.assertEqual(row_of(text, "small_new")[4], "0.500")
        self.assertEqual(row_of(text, "small_new")[5], "<= 1.00 ok")
        self.assertEqual(row_of(text, "small_new")[6], "-")
        self.assertEqual(row_of(text, "device_copy")[5], "")  # no target against CuPy
        self.assertNotIn("warning", text)

    def test_a_bytes_disagreement_is_reported(self):
        args = self.args
        plinth = {"dot": record("dot", args, 1.0)}
        cupy = {"dot": dict(record("dot", args, 1.0, "cupy"), bytes=1)}
        self.assertIn("warning: dot: plinth counts", run.table(args, plinth, cupy, []))

    def test_the_second_api_against_the_first_and_its_copy(self):
        args = self.args
        first = {w: record(w, args, 1.0) for w in args.workloads}
        second = {w: record(w, args, 2.0) for w in args.workloads}
        second["device_copy"] = record("device_copy", args, 1.0)
        text = run.also_table(args, "opencl", {"api": "OpenCL", "device": "GPU"}, second,
                              {"api": "CUDA", "device": "GPU"}, first)
        self.assertIn("OpenCL/CUDA", text)
        self.assertIn("OpenCL/copy", text)
        cells = row_of(text, "strided_expr")
        self.assertEqual(cells[4], "0.500")
        self.assertEqual(cells[5], "%.3f" % (run.bytes_of("strided_expr", args) /
                                             run.bytes_of("device_copy", args) / 2))
        self.assertEqual(row_of(text, "device_copy")[4], "1.000")  # both copies took 1 s
        self.assertNotIn("different devices", text)
        other = run.also_table(args, "opencl", {"api": "OpenCL", "device": "CPU"}, second,
                               {"api": "CUDA", "device": "GPU"}, first)
        self.assertIn("warning: the two APIs ran on different devices", other)


@unittest.skipIf(numpy is None, "numpy is missing")
class CupySide(unittest.TestCase):
    def test_every_workload_runs_and_checks(self):
        args = run.parse_args(SMALL)
        setup, results = run.run_cupy(fake_cupy(), args)
        self.assertEqual(setup["device"], "Fake GPU")
        self.assertEqual(sorted(results), sorted(run.WORKLOADS))
        for workload, result in results.items():
            self.assertEqual(result["bytes"], run.bytes_of(workload, args))
            self.assertGreater(result["seconds"], 0)

    def test_odd_sizes(self):
        args = run.parse_args(["--large", "33", "--matrix", "9", "--cube", "3x7x5", "--reps", "1",
                               "--warmup", "1", "--batch-large", "1", "--batch-small", "1",
                               "--sort", "33", "--gemm", "17"])
        self.assertEqual(len(run.run_cupy(fake_cupy(), args)[1]), len(run.WORKLOADS))

    def test_a_wrong_result_is_caught(self):
        args = run.parse_args(SMALL)
        wrong = {
            "transpose": ("ascontiguousarray", lambda a: numpy.ascontiguousarray(a.T).view(
                type(a))),
            "sum_axis0": ("sum", lambda a, axis=None: numpy.asarray(numpy.sum(
                a, axis=None if axis is None else (axis + 1) % a.ndim)).view(type(a))),
            "max": ("max", lambda a: numpy.asarray(numpy.min(a)).view(type(a))),
            "sort_f32": ("sort", lambda a: numpy.sort(a)[::-1].view(type(a))),
            "argsort_f32": ("argsort", lambda a: numpy.arange(a.size).view(type(a))),
            "argmax": ("argmax", lambda a: numpy.asarray(numpy.argmin(a)).view(type(a))),
            # An exclusive scan where numpy's is inclusive.
            "cumsum": ("cumsum", lambda a: (numpy.cumsum(a) - a).view(type(a))),
            # Issue 30: an arange one off, and a sum over the wrong axis of the reshape.
            "arange": ("arange", lambda n, dtype=None: numpy.arange(1, n + 1, dtype=dtype).view(
                type(fake_cupy().ones(1, numpy.float32)))),
            "reshape_sum": ("sum", lambda a, axis=None: numpy.asarray(numpy.sum(
                a, axis=None if axis is None else (axis + 1) % a.ndim)).view(type(a))),
        }
        for workload, (name, function) in wrong.items():
            cupy = fake_cupy()
            setattr(cupy, name, function)
            args.workloads = [workload]
            with self.assertRaisesRegex(RuntimeError, "CuPy %s: wrong result" % workload):
                run.run_cupy(cupy, args)


@unittest.skipIf(numpy is None, "numpy is missing")
class Float16(unittest.TestCase):
    def test_fuse_is_cupys_call_where_it_rounds_as_numpy(self):
        args = run.parse_args(SMALL + ["--workloads", "f16_fma"])
        setup, results = run.run_cupy(fake_cupy(), args)
        self.assertTrue(results["f16_fma"]["how"].startswith("cupy.fuse"))
        self.assertEqual(results["f16_fma"]["dtype"], "float16")

    def test_two_kernels_where_fuse_rounds_once(self):
        # A fuse that computes in float32 and rounds only the result gives 1 + 3 * 2^-10,
        # not numpy's 1 + 2^-9: the row then runs x * y + w, which does round as numpy.
        cupy = fake_cupy()
        cupy.fuse = lambda kernel_name: (lambda f: (lambda *a: run_once_rounded(f, a)))
        args = run.parse_args(SMALL + ["--workloads", "f16_fma"])
        setup, results = run.run_cupy(cupy, args)
        self.assertTrue(results["f16_fma"]["how"].startswith("x * y + w"))

    def test_a_wrong_float16_result_is_caught(self):
        cupy = fake_cupy()
        cupy.fuse = lambda kernel_name: (lambda f: (lambda *a: run_once_rounded(f, a)))
        full = cupy.full
        cupy.full = lambda n, v, dtype: full(n, 2**-10 if v == 2**-11 else v, dtype)
        args = run.parse_args(SMALL + ["--workloads", "f16_fma"])
        with self.assertRaisesRegex(RuntimeError, "CuPy f16_fma: wrong result"):
            run.run_cupy(cupy, args)


def run_once_rounded(f, arrays):
    """f of float16 arrays computed in float32, rounded to float16 once at the end."""
    wide = [numpy.asarray(a, dtype=numpy.float32) for a in arrays]
    return numpy.asarray(f(*wide)).astype(arrays[0].dtype).view(type(arrays[0]))


@unittest.skipUnless(os.environ.get("PLINTH_BENCH_PEER"), "PLINTH_BENCH_PEER is not set")
class PlinthSide(unittest.TestCase):
    def test_every_workload_runs_and_checks_on_opencl(self):
        args = run.parse_args(SMALL + ["--binary", os.environ["PLINTH_BENCH_PEER"],
                                       "--matrix", "130"])
        setup, results, error = run.run_plinth(args, "opencl")
        self.assertEqual(error, "")
        self.assertEqual(setup["api_id"], "opencl")
        self.assertEqual(sorted(results), sorted(run.WORKLOADS))
        for workload, result in results.items():
            # The bytes and elements of a call as the CuPy side counts them.
            self.assertEqual(result["bytes"], run.bytes_of(workload, args), workload)
            self.assertEqual(result["elements"], run.elements_of(workload, args), workload)
            self.assertEqual(result["api"], "opencl")


if __name__ == "__main__":
    unittest.main()

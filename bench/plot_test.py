#!/usr/bin/env python3
"""Tests of bench/plot's readers (and, where matplotlib is installed, of its plots):

    python3 bench/plot_test.py            # unittest, no other package needed
    python3 -m pytest bench/plot_test.py  # the same under pytest

The inputs are in bench/plot_testdata: gbench-1.7.1.json, the --benchmark_out JSON of a Google
Benchmark 1.7.1 program shaped like plinth's benchmarks (make_fixture.cc, which says how it
was made), console.txt, the summary table of that run as bench/common.cpp prints it, and
bench-peer-h100.txt, bench/peer's output on an H100 (2026-11-27 12:29 UTC).
"""
import contextlib
import copy
import importlib.machinery
import importlib.util
import io
import json
import os
import shutil
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "plot_testdata")


def load_plot():
    loader = importlib.machinery.SourceFileLoader("bench_plot", os.path.join(HERE, "plot"))
    spec = importlib.util.spec_from_loader("bench_plot", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


plot = load_plot()


def fixture_json():
    with open(os.path.join(DATA, "gbench-1.7.1.json"), encoding="utf-8") as f:
        return json.load(f)


def without_targets(data):
    """The fixture as today's benchmarks write it: no "plinth_op:" context keys."""
    data = copy.deepcopy(data)
    data["context"] = {k: v for k, v in data["context"].items()
                       if not k.startswith("plinth_op:")}
    return data


# The fixture's medians (its "_median" aggregates), per side: seconds, bytes per second.
MEDIANS = {
    "launch/empty": ((2751.344278304964e-9, None), (3242.42433912516e-9, None)),
    "h2d/1MiB/sync": ((56578.99400102907e-9, 18532955887.849976),
                      (65646.93544084586e-9, 15972961920.58907)),
    "d2d/1GiB": ((46714.42112208402e-9, 22446515975.43378),
                 (43893.21243091198e-9, 23889251707.20783)),
    "kernel/saxpy_64M": ((0.30000000000000054e-3, 2684354559999.995),
                         (0.289999999999999e-3, 2776918510344.8374)),
    "rect/d2d/8192x8192_of_16384": ((0.39999999999999886e-3, 1342177280000.004),
                                    (0.32999999999999846e-3, 1626881551515.1592)),
}


def time_ratio(name):
    return MEDIANS[name][0][0] / MEDIANS[name][1][0]


def rate_ratio(name):
    return MEDIANS[name][0][1] / MEDIANS[name][1][1]


class NamesTest(unittest.TestCase):
    def test_options_are_stripped_from_run_names(self):
        self.assertEqual(plot.split_run_name(
            "launch/empty/plinth/min_time:0.050/repeats:20/real_time"), ("launch/empty", "plinth"))
        self.assertEqual(plot.split_run_name("kernel/saxpy_64M/raw/min_time:0.100/manual_time"),
                         ("kernel/saxpy_64M", "raw"))
        self.assertEqual(plot.split_run_name("build/warm-vs-cold/plinth/iterations:20/real_time"),
                         ("build/warm-vs-cold", "plinth"))
        self.assertEqual(plot.split_run_name("algorithms/sort_float32_2^26/raw"),
                         ("algorithms/sort_float32_2^26", "raw"))
        self.assertEqual(plot.split_run_name("some_other_benchmark/real_time"), (None, None))

    def test_context_targets(self):
        self.assertEqual(plot.context_targets({
            "plinth_op:launch/empty": "latency <= 1.10",
            "plinth_op:d2d/1GiB": "throughput",
            "plinth_op:h2d/1MiB/sync": "throughput >= 0.95",
            "plinth_device": "cuda:0.0",
            "plinth_op:bad": "fast"}), {
            "launch/empty": ("latency", "<=", 1.10),
            "d2d/1GiB": ("throughput", None, None),
            "h2d/1MiB/sync": ("throughput", ">=", 0.95)})


class JsonTest(unittest.TestCase):
    def test_ratios_measures_and_targets_from_the_context(self):
        warnings = []
        rows = plot.json_rows(fixture_json(), warn=warnings.append)
        # In registration order (family_index), not the random order of the records; the
        # operation whose raw side failed is left out, and said so.
        self.assertEqual([r[0] for r in rows], list(MEDIANS))
        self.assertEqual(warnings, ["left out, a side failed: fill/1GiB/pattern4"])
        by_name = {r[0]: r for r in rows}
        expected = {
            "launch/empty": (time_ratio("launch/empty"), "<=", 1.10),
            "h2d/1MiB/sync": (rate_ratio("h2d/1MiB/sync"), ">=", 0.95),
            "d2d/1GiB": (rate_ratio("d2d/1GiB"), None, None),
            "kernel/saxpy_64M": (time_ratio("kernel/saxpy_64M"), "<=", 1.05),
            "rect/d2d/8192x8192_of_16384": (rate_ratio("rect/d2d/8192x8192_of_16384"), ">=",
                                            0.95),
        }
        for name, (ratio, op, target) in expected.items():
            row = by_name[name]
            self.assertAlmostEqual(row[1], ratio, places=9, msg=name)
            self.assertEqual(row[2:4], (op, target), name)
            met = None if op is None else (ratio <= target if op == "<=" else ratio >= target)
            self.assertEqual(row[4], met, name)
        self.assertAlmostEqual(by_name["kernel/saxpy_64M"][1], 1.034, places=3)
        self.assertFalse(by_name["rect/d2d/8192x8192_of_16384"][4])

    def test_targets_from_the_console_output(self):
        targets = plot.table_targets(os.path.join(DATA, "console.txt"))
        self.assertEqual(targets["launch/empty"], ("latency", "<=", 1.10))
        self.assertEqual(targets["kernel/saxpy_64M"], ("latency", "<=", 1.05))
        self.assertEqual(targets["d2d/1GiB"], ("throughput", None, None))
        self.assertEqual(targets["pool/alloc_free_1MiB"], ("latency", None, None))
        self.assertEqual(targets["fill/1GiB/pattern4"], ("throughput", None, None))
        warnings = []
        rows = plot.json_rows(without_targets(fixture_json()), targets, warnings.append)
        self.assertEqual(rows, plot.json_rows(fixture_json()))
        self.assertEqual(warnings, ["left out, a side failed: fill/1GiB/pattern4"])

    def test_without_targets_it_guesses_and_says_so(self):
        warnings = []
        rows = {r[0]: r for r in plot.json_rows(without_targets(fixture_json()),
                                                warn=warnings.append)}
        self.assertTrue(all(r[2] is None and r[4] is None for r in rows.values()))
        # No bytes on the launch's sides: a latency. The kernel reports bytes on both
        # sides: guessed a throughput, its ratio the inverse of the table's.
        self.assertAlmostEqual(rows["launch/empty"][1], time_ratio("launch/empty"))
        self.assertAlmostEqual(rows["kernel/saxpy_64M"][1], rate_ratio("kernel/saxpy_64M"))
        self.assertIn("guessed", warnings[0])
        self.assertIn("kernel/saxpy_64M", warnings[0])

    def test_the_median_of_the_repetitions_without_aggregates(self):
        data = fixture_json()
        data["benchmarks"] = [r for r in data["benchmarks"] if r["run_type"] != "aggregate"]
        rows = {r[0]: r for r in plot.json_rows(data)}
        plinth = sorted(r["bytes_per_second"] for r in fixture_json()["benchmarks"]
                        if r["run_name"].startswith("h2d/1MiB/sync/plinth/")
                        and r["run_type"] == "iteration")
        raw = sorted(r["bytes_per_second"] for r in fixture_json()["benchmarks"]
                     if r["run_name"].startswith("h2d/1MiB/sync/raw/")
                     and r["run_type"] == "iteration")
        self.assertEqual(len(plinth), 3)
        self.assertAlmostEqual(rows["h2d/1MiB/sync"][1], plinth[1] / raw[1])

    def test_input_kinds(self):
        self.assertEqual(plot.input_kind(os.path.join(DATA, "gbench-1.7.1.json")), "json")
        self.assertEqual(plot.input_kind(os.path.join(DATA, "console.txt")), "table")
        self.assertEqual(plot.input_kind(os.path.join(DATA, "bench-peer-h100.txt")), "peer")


class TableTest(unittest.TestCase):
    def test_the_summary_table(self):
        rows = plot.read_rows(os.path.join(DATA, "console.txt"))
        self.assertEqual([r[0] for r in rows], [
            "launch/empty", "h2d/1MiB/sync", "d2d/1GiB", "pool/alloc_free_1MiB",
            "kernel/saxpy_64M", "rect/d2d/8192x8192_of_16384"])  # not the failed row
        self.assertEqual(rows[0], ("launch/empty", 0.849, "<=", 1.10, True))
        self.assertEqual(rows[2], ("d2d/1GiB", 0.940, None, None, None))
        # The plinth side's own targets are not the ratio's.
        self.assertEqual(rows[3], ("pool/alloc_free_1MiB", 0.0, None, None, None))
        self.assertEqual(rows[5], ("rect/d2d/8192x8192_of_16384", 0.825, ">=", 0.95, False))

    def test_the_last_table_counts(self):
        with open(os.path.join(DATA, "console.txt"), encoding="utf-8") as f:
            text = f.read()
        table = text[text.index("operation"):]
        second = table.replace("0.849", "0.900")
        rows = plot.table_rows((table + "\n" + second).splitlines())
        self.assertEqual(len(rows), 6)
        self.assertEqual(rows[0][1], 0.900)


class PeerTest(unittest.TestCase):
    def test_the_plinth_cupy_table(self):
        with open(os.path.join(DATA, "bench-peer-h100.txt"), encoding="utf-8") as f:
            rows = plot.peer_rows(f.read().splitlines())
        names = [r[0] for r in rows]
        self.assertEqual(len(rows), 33)  # the CuPy table only, not the OpenCL one after it
        self.assertEqual(names[:4], ["axpy_new", "axpy_into", "expr_into", "small_new (time)"])
        by_name = {r[0]: r for r in rows}
        self.assertEqual(by_name["axpy_new"], ("axpy_new", 1.141, ">=", 1.0, True))
        self.assertEqual(by_name["small_new (time)"], ("small_new (time)", 0.233, "<=", 1.0,
                                                       True))
        self.assertEqual(by_name["device_copy"], ("device_copy", 1.003, None, None, None))
        self.assertEqual(by_name["sort_f32"], ("sort_f32", 0.481, ">=", 0.8, False))
        self.assertEqual(by_name["var"][1], 536.685)
        self.assertEqual(by_name["matmul"], ("matmul", 1.021, ">=", 0.98, True))
        self.assertEqual(plot.summary(rows), (23, 9, 1))

    def test_the_json_records(self):
        records = [
            {"impl": "plinth", "kind": "setup", "api": "CUDA"},
            {"impl": "plinth", "kind": "workload", "workload": "sum", "measure": "bandwidth",
             "bytes": 1000, "seconds": 1e-6, "host_seconds": 2e-6, "api": "cuda"},
            {"impl": "plinth", "kind": "workload", "workload": "small_new", "measure": "latency",
             "bytes": 10, "seconds": 1e-6, "host_seconds": 5e-6, "api": "cuda"},
            {"impl": "plinth", "kind": "workload", "workload": "sum", "measure": "bandwidth",
             "bytes": 1000, "seconds": 4e-6, "host_seconds": 5e-6, "api": "opencl"},
            {"impl": "cupy", "kind": "setup"},
            {"impl": "cupy", "kind": "workload", "workload": "sum", "measure": "bandwidth",
             "bytes": 1000, "seconds": 2e-6, "host_seconds": 3e-6},
            {"impl": "cupy", "kind": "workload", "workload": "small_new", "measure": "latency",
             "bytes": 10, "seconds": 1e-6, "host_seconds": 4e-6},
        ]
        rows = plot.peer_json_rows(json.dumps(r) for r in records)
        self.assertEqual(rows, [("sum", 2.0, ">=", 1.0, True),
                                ("small_new (time)", 1.25, "<=", 1.0, False)])


@unittest.skipIf(importlib.util.find_spec("matplotlib") is None, "no matplotlib here")
class PlotTest(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.directory)

    def draw(self, *arguments):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(plot.main(list(arguments)), 0)
        return out.getvalue()

    def test_every_input_draws(self):
        for name, expected in (("gbench-1.7.1.json", "5 operations, 3 met, 1 missed"),
                               ("console.txt", "6 operations, 3 met, 1 missed"),
                               ("bench-peer-h100.txt", "33 workloads, 23 met, 9 missed")):
            svg = os.path.join(self.directory, name + ".svg")
            self.assertIn(expected, self.draw("--title", name, os.path.join(DATA, name), svg))
            with open(svg, encoding="utf-8") as f:
                text = f.read()
            self.assertTrue(text.lstrip().startswith("<?xml"), name)
            self.assertIn(name, text)  # the title, as text
        with open(os.path.join(self.directory, "bench-peer-h100.txt.svg"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("parity", text)
        self.assertIn("536.685 ▸", text)  # var, cut at the axis's end


if __name__ == "__main__":
    unittest.main()

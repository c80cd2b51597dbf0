"""Matrix products: plinth.gemm, gemm_batched, gemv, ger, matmul and `a @ b`, against numpy."""

import numpy as np
import pytest

import plinth

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    values = rng.integers(-8, 9, shape) / 4
    if np.issubdtype(dtype, np.complexfloating):
        values = values + 1j * rng.integers(-8, 9, shape) / 4
    return values.astype(dtype)


def check(actual, expected):
    actual = actual.get()
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    rtol = 1e-5 if expected.dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol)


@pytest.fixture(autouse=True)
def engine(queue, monkeypatch):
    """plinth's kernels on a CPU device: there the library (CLBlast on PoCL) compiles each
    routine for each dtype on first use, 10 to 25 s a program, which is CI's time; the C++
    conformance tests run both engines, and test_the_library_path_and_plinth_blas below the
    library. Elsewhere the default: the library where there is one."""
    if queue.device.params.type == plinth.DeviceType.cpu:
        monkeypatch.setenv("PLINTH_BLAS", "plinth")


def needs_double(queue, dtype):
    if dtype in (np.float64, np.complex128) and not queue.device.params.supports_double:
        pytest.skip("no doubles on this device")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trans_a", ["N", "T", "C"])
@pytest.mark.parametrize("trans_b", [False, True, "C"])
def test_gemm_matches_numpy(queue, dtype, trans_a, trans_b):
    needs_double(queue, dtype)
    ops = {"N": lambda m: m, False: lambda m: m, "T": lambda m: m.T, True: lambda m: m.T,
           "C": lambda m: m.conj().T}
    a = sample(dtype, (17, 9) if trans_a == "N" else (9, 17), 1)
    b = sample(dtype, (9, 5) if trans_b is False else (5, 9), 2)
    c = sample(dtype, (17, 5), 3)
    alpha, beta = (1.5 - 0.5j, 0.5j) if np.iscomplexobj(a) else (1.5, -0.5)
    dc = plinth.to_device(queue, c)
    out = plinth.gemm(plinth.to_device(queue, a), plinth.to_device(queue, b), dc, alpha=alpha,
                      beta=beta, trans_a=trans_a, trans_b=trans_b)
    assert out is dc
    check(dc, (alpha * ops[trans_a](a) @ ops[trans_b](b) + beta * c).astype(dtype))


def test_gemm_refuses_what_does_not_fit(queue):
    a = plinth.to_device(queue, np.zeros((4, 3), np.float32))
    with pytest.raises(plinth.LogicError, match="inner dimensions differ"):
        plinth.gemm(a, a)
    with pytest.raises(plinth.LogicError, match="imaginary part"):
        plinth.gemm(a, a, trans_b=True, alpha=1j)
    with pytest.raises(plinth.LogicError, match="must be a bool or one of"):
        plinth.gemm(a, a, trans_b="X")


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_gemv_and_ger_match_numpy(queue, dtype):
    a = sample(dtype, (33, 17), 1)
    x = sample(dtype, (17,), 2)
    y = sample(dtype, (33,), 3)
    check(plinth.gemv(plinth.to_device(queue, a), plinth.to_device(queue, x), alpha=2.0),
          (2 * a @ x).astype(dtype))
    dx = plinth.to_device(queue, x)
    plinth.gemv(plinth.to_device(queue, a), plinth.to_device(queue, y), dx, trans="C", beta=1.0)
    check(dx, (a.conj().T @ y + x).astype(dtype))
    da = plinth.to_device(queue, a)
    plinth.ger(plinth.to_device(queue, y), plinth.to_device(queue, x), da, alpha=0.5,
               conjugate_y=True)
    check(da, (a + 0.5 * np.outer(y, x.conj())).astype(dtype))


def test_gemv_with_a_transposed_matrix(queue):
    a = sample(np.complex64, (33, 17), 4)
    y = sample(np.complex64, (33,), 5)
    r = plinth.gemv(plinth.to_device(queue, a), plinth.to_device(queue, y), trans="C")
    check(r, (a.conj().T @ y).astype(np.complex64))


def test_gemm_batched_matches_numpy(queue):
    a = sample(np.float32, (6, 5, 4), 1)
    b = sample(np.float32, (6, 4, 3), 2)
    check(plinth.gemm_batched(plinth.to_device(queue, a), plinth.to_device(queue, b)), a @ b)


@pytest.mark.parametrize("shapes", [((4, 3), (3, 5)), ((3,), (3, 5)), ((4, 3), (3,)),
                                    ((3,), (3,)), ((2, 1, 4, 3), (3, 3, 5)), ((2, 4, 3), (3,))])
def test_matmul_operator_follows_numpy(queue, shapes):
    a = sample(np.float32, shapes[0], 1)
    b = sample(np.float32, shapes[1], 2)
    da, db = plinth.to_device(queue, a), plinth.to_device(queue, b)
    check(da @ db, a @ b)
    check(plinth.matmul(da, db), np.matmul(a, b))


def test_matmul_of_expressions_promotes_and_writes_out(queue):
    a = sample(np.float32, (4, 3), 1)
    b = sample(np.float64, (3, 2), 2)
    da, db = plinth.to_device(queue, a), plinth.to_device(queue, b)
    check((da * 2) @ db, (a * 2) @ b)
    out = plinth.to_device(queue, np.zeros((4, 2)))
    assert plinth.matmul(da, db, out=out) is out
    check(out, a @ b)
    with pytest.raises(TypeError):
        da @ 2


def test_the_library_path_and_plinth_blas(api, queue, monkeypatch):
    support = plinth.blas_support(api)
    assert support.description
    assert repr(support).startswith("plinth.BlasSupport(library=")
    a = sample(np.float32, (7, 5), 1)
    b = sample(np.float32, (5, 3), 2)
    da, db = plinth.to_device(queue, a), plinth.to_device(queue, b)
    monkeypatch.setenv("PLINTH_BLAS", "library")
    if support.library:
        check(plinth.gemm(da, db, trans_b=False, tensor_float32=True), a @ b)
        check(da @ db, a @ b)
    else:
        with pytest.raises(plinth.LogicError, match="has no BLAS library"):
            plinth.gemm(da, db)
    monkeypatch.setenv("PLINTH_BLAS", "fastest")
    with pytest.raises(plinth.LogicError, match="PLINTH_BLAS is 'fastest'"):
        plinth.gemm(da, db)

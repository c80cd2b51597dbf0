"""Templates, Snippets and Modules (with Python callables), the functions library, ctype."""

import gc
import sys

import numpy as np
import pytest

import plinth


def test_template_defs_and_render():
    template = plinth.Template.from_string(
        '<%def name="add(a, b)">${a} + ${b}</%def>\n'
        '<%def name="body(x)">y = ${add(x, 1)};</%def>\n'
        "top ${n}",
        name="t",
    )
    assert template.def_names == ["add", "body"]
    assert template.name == "t"
    body = template.get_def("body")
    assert body.parameters == ["x"]
    assert body.render("v") == "y = v + 1;"
    assert template.render(n=3).strip() == "top 3"
    with pytest.raises(plinth.RenderError, match="nope"):
        template.get_def("nope")
    with pytest.raises(plinth.RenderError, match="missing"):
        plinth.render_source("${missing}")


def test_render_values_of_every_kind():
    rendered = plinth.render_source(
        "${i} ${u} ${f} ${s} ${b} ${l[1]} ${d.k} ${t}",
        globals={"i": -3, "u": 2**63, "f": 0.5, "s": "text", "b": True, "l": [1, "two"],
                 "d": {"k": np.int16(7)}, "t": np.dtype(np.uint32)},
    )
    assert rendered == "-3 9223372036854775808 0.5 text true two 7 unsigned int"
    with pytest.raises(TypeError):
        plinth.render_source("${x}", globals={"x": 2**70})
    with pytest.raises(TypeError):
        plinth.render_source("${x}", globals={"x": object()})


def test_snippet_from_callable_and_string():
    twice = plinth.Snippet.from_callable(lambda x: f"(${{x}} * 2 + {x!r})")
    assert twice.def_.parameters == ["x"]
    assert plinth.render_source("y = ${twice(v)};", globals={"twice": twice, "v": "a"}) == (
        "y = (a * 2 + 'a');"
    )
    snip = plinth.Snippet.from_string('<%def name="neg(x)">-${x}</%def>')
    assert snip.name == "neg"
    assert snip.render("q") == "-q"


def test_callable_errors_become_render_errors():
    def broken(x):
        raise ValueError("nothing to see")

    snippet = plinth.Snippet.from_callable(broken)
    with pytest.raises(plinth.RenderError, match="nothing to see"):
        plinth.render_source("${s(1)}", globals={"s": snippet})
    wrong = plinth.Snippet.from_callable(lambda: 42)
    with pytest.raises(plinth.RenderError, match="not a str"):
        plinth.render_source("${s}", globals={"s": wrong})


def test_module_from_callable_in_a_program(context, queue):
    calls = []

    def add_one(prefix):
        calls.append(prefix)
        return f"FUNCTION int {prefix}(int a) {{ return a + 1; }}"

    module = plinth.Module.from_callable(add_one, name="add_one")
    program = plinth.Program(
        context,
        "KERNEL void k(GLOBAL_MEM int *x) { const int i = get_global_id(0); x[i] = ${f}(x[i]); }",
        render_globals={"f": module},
    )
    assert calls and calls[0].startswith("_mod_add_one_")
    x = plinth.to_device(queue, np.arange(4, dtype=np.int32))
    program.k(queue, 4, None, x)
    np.testing.assert_array_equal(x.get(), np.arange(4) + 1)
    assert module == module and hash(module) == hash(module)


def test_module_from_string_renders_once():
    module = plinth.Module.from_string("FUNCTION int ${prefix}(int a) { return a; }", "ident")
    source = plinth.render_source("${m}(1); ${m}(2);", globals={"m": module})
    assert source.count("FUNCTION int") == 1
    assert "_mod_ident_0_(1); _mod_ident_0_(2);" in source


def test_functions_library_runs(context, queue):
    c64 = np.dtype(np.complex64)
    program = plinth.Program(
        context,
        "KERNEL void k(GLOBAL_MEM plinth_complex64 *z, GLOBAL_MEM const float *r) {"
        " const int i = get_global_id(0); z[i] = ${mul}(${conj}(z[i]), r[i]); }",
        render_globals={"mul": plinth.functions.mul([c64, np.float32]),
                        "conj": plinth.functions.conj(c64)},
    )
    z = (np.arange(4) + 1j).astype(c64)
    r = np.arange(4, dtype=np.float32) + 1
    z_dev = plinth.to_device(queue, z)
    program.k(queue, 4, None, z_dev, plinth.to_device(queue, r))
    np.testing.assert_allclose(z_dev.get(), np.conj(z) * r)
    with pytest.raises(plinth.LogicError):
        plinth.functions.add([])
    with pytest.raises(plinth.LogicError, match="byte order"):
        plinth.functions.mul([np.float32, ">f4"])



def test_ctype_and_constants():
    assert plinth.ctype(np.float32) == "float"
    assert plinth.ctype("int8") == "signed char"
    point = np.dtype([("x", np.float32), ("y", np.int32)])
    assert isinstance(plinth.ctype(point), plinth.Module)
    assert "typedef struct" in plinth.render_source("${p}", globals={"p": plinth.ctype(point)})
    with pytest.raises(plinth.LogicError):
        plinth.ctype(np.float16)
    assert plinth.c_constant(0.5, np.float32) == "0.5f"
    assert plinth.c_constant(np.float32(0.1)) == "0.1f"
    assert plinth.c_constant(7, np.uint64) == "7UL"
    assert plinth.c_constant(2**64 - 1, np.uint64) == "18446744073709551615UL"
    assert plinth.c_constant(1 + 2j, np.complex64).startswith("COMPLEX_CTR(float2)")
    with pytest.raises(plinth.LogicError):
        plinth.c_constant(1.5, np.int32)
    assert plinth.c_path(["b", "c", 1]) == "b.c[1]"
    flat = plinth.flatten_dtype(np.dtype([("a", np.int32), ("b", np.float32, (2,))]))
    assert [(path, offset) for path, _, offset in flat] == [(["a"], 0), (["b", 0], 4), (["b", 1], 8)]


def test_callables_are_released_with_their_snippets():
    def body():
        return "x"

    before = sys.getrefcount(body)
    snippet = plinth.Snippet.from_callable(body)
    module = plinth.Module.from_callable(lambda prefix: body() + prefix)
    assert sys.getrefcount(body) == before + 1
    assert plinth.render_source("${s}", globals={"s": snippet}) == "x"
    del snippet, module
    gc.collect()
    assert sys.getrefcount(body) == before


def test_template_from_file(tmp_path):
    path = tmp_path / "kernels.tmpl"
    path.write_text('<%def name="neg(x)">-${x}</%def>')
    template = plinth.Template.from_file(path)
    assert template.get_def("neg").render("1") == "-1"
    assert str(path) in template.name
    with pytest.raises(plinth.RenderError):
        plinth.Template.from_file(tmp_path / "missing.tmpl")

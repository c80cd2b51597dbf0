<%def name="add(a, b)">${a} + ${b}</%def>
<%def name="scale(x, factor)">${x} * ${factor}</%def>
<%def name="kernel(n)">
KERNEL void k(GLOBAL_MEM float* y)
{
    y[0] = ${add(n, 1)};
    y[1] = ${scale("y[0]", factor)};
}
</%def>
// top level: ${add(1, 2)}

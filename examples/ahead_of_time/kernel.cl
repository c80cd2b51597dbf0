// y = a * x + y in plinth's kernel dialect, for a real type given as the render global
// `real`: compile it ahead of time with  plinth-compile ... -D real=float kernel.cl
KERNEL void axpy(GLOBAL_MEM ${real}* y, GLOBAL_MEM const ${real}* x, ${real} a, int n)
{
    const SIZE_T i = get_global_id(0);
    if (i < (SIZE_T)n)
        y[i] = a * x[i] + y[i];
}

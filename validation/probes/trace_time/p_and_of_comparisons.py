# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 9
# runtime: ERROR TracerBoolConversionError
import jax


@jax.jit
def g(x):
    return (x < 3) and (x > 0)


print(g(2))

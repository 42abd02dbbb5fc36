# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: none
# runtime: ok
import jax


def f(x):
    if x < 3:
        return 3.0 * x ** 2
    return -4 * x


print(jax.grad(f)(2.0))

# source: look-alike of p_a_trace_or_default_lr: the default chosen by `is None`
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp

DEFAULT_LR = 0.01


def sgd(w, g, lr=None):
    lr = DEFAULT_LR if lr is None else lr
    return w - lr * g


sgd_step = jax.jit(sgd)


def main():
    w = jnp.ones(3)
    lr = jnp.float32(0.1)
    for _ in range(3):
        w = sgd_step(w, w, lr)
    print(w)


main()

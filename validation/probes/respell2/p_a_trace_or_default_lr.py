# source: validation/threads/heldout6/jaxpr16430_or_default_on_traced_argument.py (`x or default` on a traced argument), a learning rate passed as an array to a jitted sgd in a main() loop
# expect: JIT801 at line 11
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp

DEFAULT_LR = 0.01


def sgd(w, g, lr=None):
    lr = lr or DEFAULT_LR  # <-
    return w - lr * g


sgd_step = jax.jit(sgd)


def main():
    w = jnp.ones(3)
    lr = jnp.float32(0.1)
    for _ in range(3):
        w = sgd_step(w, w, lr)
    print(w)


main()

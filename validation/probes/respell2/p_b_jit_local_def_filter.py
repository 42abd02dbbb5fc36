# source: validation/threads/heldout5/eqx307_filter_jit_on_nested_loss_fn.py (filter_jit on a function defined inside the function called per epoch), eqx.filter_jit as a call, fit() called from a loop in main()
# expect: JIT102 at line 12
# runtime: COMPILES 3 CALLS 3
import equinox as eqx
import jax.numpy as jnp


def fit(w, x):
    def loss(w):
        return jnp.mean((x * w) ** 2)

    loss_jit = eqx.filter_jit(loss)  # <-
    return w - 0.1 * loss_jit(w)


def main():
    w = jnp.ones(2)
    for epoch in range(3):
        w = fit(w, jnp.arange(2.0))
    print(w)


main()

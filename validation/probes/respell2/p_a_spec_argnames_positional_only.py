# source: validation/threads/heldout5/jax10618_static_argnames_positional_only.py (static_argnames naming a positional-only parameter), jit as a call on a helper with `/`, in a main()
# expect: JIT701 at line 13
# runtime: ERROR ValueError
import jax
import jax.numpy as jnp


def pad_to(x, length, /):
    return jnp.pad(x, (0, length - x.shape[0]))


def main():
    pad = jax.jit(pad_to, static_argnames="length")  # <-
    print(pad(jnp.ones(2), 4))


main()

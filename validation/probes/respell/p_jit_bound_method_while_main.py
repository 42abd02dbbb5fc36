# source: ../shared/realworld/cases/jax9672_jit_bound_method_in_loop.py (jit of a bound method in a loop), as a while loop in main()
# expect: JIT104 at line 21
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale):
        self.scale = scale

    def forward(self, x):
        return x * self.scale


def main():
    model = Model(2.0)
    x = jnp.ones(3)
    step = 0
    while step < 3:
        fast = jax.jit(model.forward)  # <-
        x = fast(x)
        step += 1
    print(x)


if __name__ == "__main__":
    main()

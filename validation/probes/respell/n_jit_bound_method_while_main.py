# source: look-alike of p_jit_bound_method_while_main: the bound method jitted once, before the while loop
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale):
        self.scale = scale

    def forward(self, x):
        return x * self.scale


def main():
    model = Model(2.0)
    fast = jax.jit(model.forward)
    x = jnp.ones(3)
    step = 0
    while step < 3:
        x = fast(x)
        step += 1
    print(x)


if __name__ == "__main__":
    main()

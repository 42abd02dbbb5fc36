# source: https://docs.kidger.site/equinox/api/transformations/ (filter_jit: Python scalars are static)
# expect: JIT403 at line 16
# runtime: COMPILES 3 CALLS 3
import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def sgd(params, grads, lr):
    return params - lr * grads


def train(params, epochs):
    for epoch in range(epochs):
        temperature = 1.0 / (epoch + 1)
        params = sgd(params, params, temperature)
    return params


def main():
    print(train(jnp.ones(3), 3))


if __name__ == "__main__":
    main()

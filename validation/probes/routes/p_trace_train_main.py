# source: https://docs.jax.dev/en/latest/errors.html
# expect: JIT802 at line 9
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


def log_loss(loss):
    return float(loss)


@jax.jit
def train_step(params):
    loss = jnp.sum(params ** 2)
    log_loss(loss)
    return params - 0.1 * params


def train(params):
    for _ in range(3):
        params = train_step(params)
    return params


def main():
    print(train(jnp.ones(3)))


if __name__ == "__main__":
    main()

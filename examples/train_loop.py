"""A small training script with the recompilation mistakes jitlint exists to catch.

Run `jitlint examples/` to see them, and `jitlint --confirm examples/` to measure them.
"""
import functools

import jax
import jax.numpy as jnp


def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def make_update(lr):
    def update(w, g):
        return w - lr * g

    return jax.jit(update)


class Model:
    def __init__(self, w):
        self.w = w

    def predict(self, x):
        return x @ self.w

    def __call__(self, x):
        return jax.jit(self.predict)(x)


def evaluate(model, x, y):
    return jax.jit(lambda p: jnp.mean((p - y) ** 2))(model(x))


def train(steps=5):
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (32, 4))
    y = x @ jnp.arange(4.0)
    w = jnp.zeros(4)
    for step in range(steps):
        g = jax.jit(jax.grad(loss))(w, x, y)
        w = make_update(0.1)(w, g)
        scale = jax.jit(functools.partial(jnp.multiply, 1.0))
        w = scale(w)
        print(step, evaluate(Model(w), x, y))
    return w


if __name__ == "__main__":
    train()

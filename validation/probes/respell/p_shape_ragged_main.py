# source: ../shared/realworld/cases2/diffrax111_ragged_last_batch.py (the last batch shorter than the others), the batching in a helper generator and the loop in main()
# expect: JIT504 at line 23
# runtime: COMPILES 2 CALLS 3
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def loss(w, xb):
    return jnp.mean((xb @ w) ** 2)


def batches(data, size):
    for start in range(0, len(data), size):
        yield data[start:start + size]


def main():
    data = np.ones((10, 2), dtype=np.float32)
    w = jnp.ones(2)
    for xb in batches(data, 4):
        print(loss(w, xb))  # <-


if __name__ == "__main__":
    main()

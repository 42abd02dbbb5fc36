import jax
import jax.numpy as jnp


@jax.jit
def operator(u, a, b):
    uu = jnp.zeros(u.shape)
    for i in range(u.shape[1]):
        uu = uu.at[:, i].set(a[i] * u[:, i] + b)  # the column update  # expect: JIT818
    uu = uu.at[0, :].add(1.0); uu = uu.at[-1, :].multiply(2.0)  # boundaries  # expect: JIT818
    return uu


u = jnp.arange(12.0).reshape(4, 3)
print(operator(u, jnp.array([1.0, 2.0, 3.0]), 0.5).tolist())

# source: issue 27: self._fwd = jax.jit(self.forward) freezes self.w
# expect: JIT601 at line 11, 14, 22
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


class Model:
    def __init__(self):
        self.w = jnp.ones(2)
        self._forward = jax.jit(self.forward)

    def forward(self, x):
        return x @ self.w

    def __call__(self, x):
        return self._forward(x)


model = Model()
print(model(jnp.ones(2)))
model.w = model.w * 3
print(model(jnp.ones(2)))

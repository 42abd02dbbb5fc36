# source: look-alike of p_a_trace_schedule_if_warmup: the warmup with jnp.where
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp
import optax

WARMUP = 10


def warmup_cosine(step):
    warm = 1e-3 * (step + 1) / WARMUP
    return jnp.where(step < WARMUP, warm, 1e-3 * 0.5 * (1 + jnp.cos(jnp.pi * step / 1000)))


class Trainer:
    def __init__(self, params):
        self.tx = optax.adamw(learning_rate=warmup_cosine)
        self.opt_state = self.tx.init(params)
        self.params = params

    def train(self, x, steps):
        step = jax.jit(self._step)
        for _ in range(steps):
            self.params, self.opt_state = step(self.params, self.opt_state, x)

    def _step(self, params, opt_state, x):
        grads = jax.grad(lambda p: jnp.sum((p * x) ** 2))(params)
        updates, opt_state = self.tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state


trainer = Trainer(jnp.ones(3))
trainer.train(jnp.ones(3), 2)
print(jnp.round(trainer.params, 4).tolist())

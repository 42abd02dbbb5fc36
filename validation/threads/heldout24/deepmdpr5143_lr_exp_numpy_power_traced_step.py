# source: https://github.com/deepmodeling/deepmd-kit/pull/5143
# expect: trace-time-error at line 82
# runtime: ERROR TracerArrayConversionError
# why: LearningRateExp.value computes the schedule with np.power and a Python `if`; optax calls it inside the jitted update with a traced step count, so np.power converts a tracer and raises TracerArrayConversionError.
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# deepmd/dpmodel/utils/learning_rate.py before PR #5143 (the NumPy learning-rate schedules)
from abc import (
    ABC,
    abstractmethod,
)
from typing import (
    Any,
)

import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import numpy as np
import optax  # scaffolding


class BaseLR(ABC):  # plugin registry (PluginVariant, make_plugin_registry, __new__ dispatch) dropped
    def __init__(
        self, start_lr: float, stop_lr: float, stop_steps: int, **kwargs: Any
    ) -> None:
        """Base class for learning rate schedules."""
        self.start_lr = start_lr
        self.stop_lr = stop_lr
        self.stop_steps = stop_steps

    @abstractmethod
    def value(self, step: int) -> np.float64:
        """Get the learning rate at the given step."""
        pass


class LearningRateExp(BaseLR):
    def __init__(
        self,
        start_lr: float,
        stop_lr: float,
        decay_steps: int,
        stop_steps: int,
        decay_rate: float | None = None,
        **kwargs: Any,
    ) -> None:
        """Construct an exponential-decayed learning rate."""
        super().__init__(start_lr, stop_lr, stop_steps, **kwargs)
        default_ds = 100 if stop_steps // 10 > 100 else stop_steps // 100 + 1
        self.decay_steps = decay_steps
        if self.decay_steps >= stop_steps:
            self.decay_steps = default_ds
        self.decay_rate = np.exp(
            np.log(stop_lr / self.start_lr) / (stop_steps / self.decay_steps)
        )
        if decay_rate is not None:
            self.decay_rate = decay_rate
        self.min_lr = self.stop_lr

    def value(self, step: int) -> np.float64:
        """Get the learning rate at the given step."""
        step_lr = self.start_lr * np.power(self.decay_rate, step // self.decay_steps)
        if step_lr < self.min_lr:
            step_lr = self.min_lr
        return step_lr


class LearningRateCosine(BaseLR):
    def __init__(
        self,
        start_lr: float,
        stop_lr: float,
        stop_steps: int,
        **kwargs: Any,
    ) -> None:
        """Defines a cosine annealing learning rate schedule."""
        super().__init__(start_lr, stop_lr, stop_steps, **kwargs)
        self.lr_min_factor = stop_lr / start_lr

    def value(self, step: int) -> np.float64:
        if step >= self.stop_steps:
            return self.start_lr * self.lr_min_factor
        return self.start_lr * (
            self.lr_min_factor
            + 0.5
            * (1 - self.lr_min_factor)
            * (1 + np.cos(np.pi * (step / self.stop_steps)))
        )


# --- a JAX training loop in which optax calls the schedule with its traced step count ---
lr = LearningRateExp(start_lr=1e-3, stop_lr=1e-5, decay_steps=5, stop_steps=40)  # scaffolding
tx = optax.adam(learning_rate=lr.value)  # scaffolding: optax passes a jnp step count to the schedule
rng = np.random.default_rng(0)  # scaffolding
X = jnp.asarray(rng.normal(size=(32, 4)), jnp.float32)  # scaffolding: a toy least-squares fit
y = X @ jnp.arange(1.0, 5.0)  # scaffolding


@jax.jit  # scaffolding
def train_step(params, opt_state):  # scaffolding
    loss, grads = jax.value_and_grad(lambda w: jnp.mean((X @ w - y) ** 2))(params)  # scaffolding
    updates, opt_state = tx.update(grads, opt_state, params)  # scaffolding
    return optax.apply_updates(params, updates), opt_state, loss  # scaffolding


try:  # scaffolding
    params = jnp.zeros(4)  # scaffolding
    opt_state = tx.init(params)  # scaffolding
    for step in range(10):  # scaffolding
        params, opt_state, loss = train_step(params, opt_state)  # scaffolding
    print(float(loss))  # scaffolding
    _report({"jit(train_step)"}, 10)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding

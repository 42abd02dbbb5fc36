# source: https://github.com/deepmodeling/deepmd-kit/pull/5143
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: The PR's Array API schedule (xp.pow on the traced step and xp.clip instead of the Python if) stays traced, so the jitted train step compiles once for ten steps.
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


# deepmd/dpmodel/utils/learning_rate.py after PR #5143 (Array API learning-rate schedules)
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


Array = Any  # scaffolding: deepmd.dpmodel.array_api.Array


class array_api_compat:  # scaffolding: stand-in for the array_api_compat package
    @staticmethod  # scaffolding
    def is_array_api_obj(x):  # scaffolding
        return isinstance(x, (np.ndarray, jax.Array))  # scaffolding

    @staticmethod  # scaffolding
    def array_namespace(*xs):  # scaffolding
        return jnp if any(isinstance(x, jax.Array) for x in xs) else np  # scaffolding

    @staticmethod  # scaffolding
    def device(x):  # scaffolding: array_api_compat returns None for jitted JAX arrays (no .device on tracers)
        return getattr(x, "device", None)  # scaffolding


class BaseLR(ABC):  # plugin registry (PluginVariant, make_plugin_registry, __new__ dispatch) dropped
    def __init__(
        self, start_lr: float, stop_lr: float, stop_steps: int, **kwargs: Any
    ) -> None:
        """Base class for learning rate schedules."""
        self.start_lr = start_lr
        self.stop_lr = stop_lr
        self.stop_steps = stop_steps

    @abstractmethod
    def value(self, step: int | Array) -> Array:
        """Get the learning rate at the given step."""
        # in optax, step will be a jnp.ndarray passed in JIT mode
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
        ).item()
        if decay_rate is not None:
            self.decay_rate = decay_rate
        self.min_lr = self.stop_lr

    def value(self, step: int | Array) -> Array:
        """Get the learning rate at the given step."""
        if not array_api_compat.is_array_api_obj(step):
            step = np.asarray(step)
        xp = array_api_compat.array_namespace(step)
        step_lr = self.start_lr * xp.pow(
            xp.asarray(self.decay_rate, device=array_api_compat.device(step)),
            xp.astype(step // self.decay_steps, xp.float64),
        )
        # the original implementation `if step_lr < self.min_lr:`
        # will cause a dynamic graph which is unsupported in JAX JIT
        step_lr = xp.clip(step_lr, self.min_lr, None)
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

    def value(self, step: int | Array) -> Array:
        if not array_api_compat.is_array_api_obj(step):
            step = np.asarray(step)
        xp = array_api_compat.array_namespace(step)
        min_lr = self.start_lr * self.lr_min_factor
        step_lr = self.start_lr * (
            self.lr_min_factor
            + 0.5
            * (1 - self.lr_min_factor)
            * (
                1
                + xp.cos(
                    xp.asarray(
                        xp.pi * (xp.astype(step, xp.float64) / self.stop_steps),
                        device=array_api_compat.device(step),
                    )
                )
            )
        )
        step_lr = xp.where(step >= self.stop_steps, min_lr, step_lr)
        return step_lr


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

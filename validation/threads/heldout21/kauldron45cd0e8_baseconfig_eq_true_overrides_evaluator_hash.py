# source: https://github.com/google-research/kauldron/commit/45cd0e8a55ec3f80dc52a860b464699338a093ab
# expect: unhashable-static at line 45
# runtime: ERROR ValueError
# why: BaseConfig.__init_subclass__ turns every subclass into an eq=True frozen dataclass, so a subclass of Evaluator gets a generated field-based __hash__ instead of the id-based one Evaluator defines, and hashing it as the static self of the jitted step fails on its dict fields.
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

import dataclasses
import functools
import typing
from typing import Any

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class BaseConfig:  # kauldron/utils/config_util.py (konfig.WithRef base and edc.dataclass left out)
  """Base config class."""

  if not typing.TYPE_CHECKING:
    # pytype fail
    def __init_subclass__(cls, **kwargs):
      super().__init_subclass__(**kwargs)
      cls = dataclasses.dataclass(  # pylint: disable=self-cls-assignment
          frozen=True,
          eq=True,
          kw_only=True,
      )(cls)


class EvaluatorBase(BaseConfig):  # scaffolding: kauldron/evals/evaluators.py, cut to a few fields
  name: str = "eval"
  losses: dict = dataclasses.field(default_factory=dict)
  metrics: dict = dataclasses.field(default_factory=dict)


class Evaluator(EvaluatorBase):  # scaffolding: cut to the jitted step and the __hash__ it defines
  num_batches: int | None = None

  @functools.partial(
      jax.jit,
      static_argnames=('self',),
  )
  def step(self, *, step_nr, state, batch):
    return {name: fn(state, batch) for name, fn in self.metrics.items()}

  def __hash__(self) -> int:
    # Make Evaluator hashable, so its methods can be jitted.
    return id(self)


class FewShotEvaluator(Evaluator):  # scaffolding: an Evaluator subclass that defines no __hash__ of its own
  num_shots: int = 5


# scaffolding: evaluate three batches
evaluator = FewShotEvaluator(metrics={"mse": lambda s, b: jnp.mean((b * s) ** 2)})
calls = 0  # scaffolding
try:  # scaffolding
  for i in range(3):  # scaffolding
    out = evaluator.step(step_nr=i, state=jnp.ones(4), batch=jnp.arange(4.0) + i)
    calls += 1  # scaffolding
  _report({"jit(step)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")

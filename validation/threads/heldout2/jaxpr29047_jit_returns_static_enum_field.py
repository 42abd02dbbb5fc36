# source: https://github.com/jax-ml/jax/pull/29047
# expect: trace-time-error at line 42
# runtime: ERROR TypeError
# why: test_enum_field is a static field of the registered dataclass, so inside jit it is a plain enum member, and returning it from the jitted function raises TypeError (an enum is not a valid JAX type).

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


import enum
import dataclasses
import jax

class TestEnum(enum.Enum):
  A = enum.auto()

@jax.tree_util.register_dataclass
@dataclasses.dataclass
class TestClass3:
  test_enum_field: TestEnum = dataclasses.field(metadata=dict(static=True))
  test_data_field: int

def test_jax_function(test_class: TestClass3) -> TestEnum:
  return test_class.test_enum_field

jitted_test_function = jax.jit(test_jax_function)
try:  # scaffolding
  jitted_test_function(
      TestClass3(
          test_data_field=1,
          test_enum_field=TestEnum.A,
      )
  )
  _report({"jit(test_jax_function)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")

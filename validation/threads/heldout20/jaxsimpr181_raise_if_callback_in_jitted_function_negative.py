# source: https://github.com/gbionics/jaxsim/pull/181
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: raise_if turns a traced condition into lax.cond + jax.debug.callback instead of a Python if/raise, so the jitted function traces once, runs for 40 and 41, and raises only at run time for 42 without retracing.
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
# gbionics/jaxsim PR #181 (Raise exceptions from jit-compiled functions): src/jaxsim/exceptions.py as merged (954c5c6a) and the PR's test function
import jax
import jax.numpy as jnp


def raise_if(
    condition: bool | jax.Array, exception: type, msg: str, *args, **kwargs
) -> None:
    """
    Raise a host-side exception if a condition is met. Useful in jit-compiled functions.

    Args:
        condition:
            The boolean condition of the evaluated expression that triggers
            the exception during runtime.
        exception: The type of exception to raise.
        msg:
            The message to display when the exception is raised. The message can be a
            format string (fmt), whose fields are filled with the args and kwargs.
    """

    # Check early that the format string is well-formed.
    try:
        _ = msg.format(*args, **kwargs)
    except Exception as e:
        msg = "Error in formatting exception message with args={} and kwargs={}"
        raise ValueError(msg.format(args, kwargs)) from e

    def _raise_exception(condition: bool, *args, **kwargs) -> None:
        """The function called by the JAX callback."""

        if condition:
            raise exception(msg.format(*args, **kwargs))

    def _callback(args, kwargs) -> None:
        """The function that calls the JAX callback, executed only when needed."""

        jax.debug.callback(_raise_exception, condition, *args, **kwargs)

    # Since running a callable on the host is expensive, we prevent its execution
    # if the condition is False with a low-level conditional expression.
    def _run_callback_only_if_condition_is_true(*args, **kwargs) -> None:
        return jax.lax.cond(
            condition,
            _callback,
            lambda args, kwargs: None,
            args,
            kwargs,
        )

    return _run_callback_only_if_condition_is_true(*args, **kwargs)


def raise_runtime_error_if(
    condition: bool | jax.Array, msg: str, *args, **kwargs
) -> None:

    return raise_if(condition, RuntimeError, msg, *args, **kwargs)


def raise_value_error_if(
    condition: bool | jax.Array, msg: str, *args, **kwargs
) -> None:

    return raise_if(condition, ValueError, msg, *args, **kwargs)


class exceptions:  # scaffolding: the module namespace used by the test
    raise_value_error_if = staticmethod(raise_value_error_if)  # scaffolding
    raise_runtime_error_if = staticmethod(raise_runtime_error_if)  # scaffolding


msg_during_jit = "Compiling jit_compiled_function"


@jax.jit
def jit_compiled_function(data: jax.Array) -> jax.Array:

    # This message is compiled only during JIT compilation.
    print(msg_during_jit)

    # Condition that will trigger the exception.
    failed_if_42_plus = jnp.allclose(data, 42)

    # Raise a ValueError if the condition is met.
    # The fmt string is built from kwargs.
    exceptions.raise_value_error_if(
        condition=failed_if_42_plus,
        msg="Raising ValueError since data={num}",
        num=data,
    )

    # Condition that will trigger the exception.
    failed_if_42_minus = jnp.allclose(data, -42)

    # Raise a RuntimeError if the condition is met.
    # The fmt string is built from args.
    exceptions.raise_runtime_error_if(
        failed_if_42_minus,
        "Raising RuntimeError since data={}",
        data,
    )

    return data


out = jit_compiled_function(data=40)
out = jit_compiled_function(data=41)
try:  # scaffolding: the test's pytest.raises(XlaRuntimeError)
    _ = jit_compiled_function(data=42)
    print("no error")  # scaffolding
except Exception as err:  # scaffolding
    print("raised at run time:", type(err).__name__)  # scaffolding
print(jit_compiled_function._cache_size())  # scaffolding
_report({"jit(jit_compiled_function)"}, 3)  # scaffolding

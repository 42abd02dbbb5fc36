# source: https://github.com/moulin1024/JAX-Wind/blob/33d6eba89572fee9b34d2bc500d9940040e42c05/legacy/cases/ConcurrentPrecursor/run_native.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: jax.jit(make_precursor_inflow_batch(...)) is built inside the loop over time batches, but only when compiled_batches has no executable for that step_count; the lowered+compiled executable is cached in a dict, so equal-sized batches compile once.

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


# --- end harness ---
import time
import jax
import jax.numpy as jnp


def make_precursor_inflow_batch(params, ops, mesh, *, batch_steps, axis_name="z"):  # scaffolding: stand-in for wireles_jax.inflow_batches
    if batch_steps <= 0:  # scaffolding
        raise ValueError("batch_steps must be positive")  # scaffolding

    def advance(state, runtime_pressure_ops, runtime_spike_ops):  # scaffolding
        def body(carry, _):  # scaffolding
            snapshot = carry[:2]  # scaffolding
            return carry * 0.99 + runtime_pressure_ops - runtime_spike_ops, snapshot  # scaffolding
        return jax.lax.scan(body, state, None, length=batch_steps)  # scaffolding

    return advance  # scaffolding


class _Ops:  # scaffolding: make_sharded_operators(params, warm_mesh)
    pressure = jnp.float32(0.01)  # scaffolding
    pressure_spike = jnp.float32(0.001)  # scaffolding


params, warm_mesh, rank = None, None, 0  # scaffolding
ops = _Ops()  # scaffolding
warm_state = jnp.ones((8,), jnp.float32)  # scaffolding
manifest = {"batches": [{"batch_id": i, "step_count": 3} for i in range(4)]}  # scaffolding: 12 precursor steps in batches of 3

compiled_batches: dict[int, object] = {}
state = warm_state

for batch in manifest["batches"]:
    batch_id = int(batch["batch_id"])
    step_count = int(batch["step_count"])
    executable = compiled_batches.get(step_count)
    if executable is None:
        batch_fn = jax.jit(
            make_precursor_inflow_batch(
                params,
                ops,
                warm_mesh,
                batch_steps=step_count,
            ),
            donate_argnums=(0,),
        )
        compile_start = time.perf_counter()
        executable = batch_fn.lower(
            state,
            ops.pressure,
            ops.pressure_spike,
        ).compile()
        compiled_batches[step_count] = executable
        if rank == 0:
            print(
                f"[precursor-dump] compiled {step_count}-step batch in "
                f"{time.perf_counter() - compile_start:.2f}s",
                flush=True,
            )

    state, snapshots = executable(
        state,
        ops.pressure,
        ops.pressure_spike,
    )
    snapshots = jax.block_until_ready(snapshots)

_report({"jit(advance)"}, len(manifest["batches"]))  # scaffolding

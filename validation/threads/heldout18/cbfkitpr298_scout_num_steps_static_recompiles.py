# source: https://github.com/bardhh/cbfkit/pull/298
# expect: changing-static at line 338
# runtime: COMPILES 3 CALLS 6
# why: simulator_jit is jitted with num_steps static, and the scout script sweeps the horizon 100, 100, 101, 101, 102, 100, so every new num_steps value compiles the whole simulation again (3 compiles for 6 runs).
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


from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple, Union  # scaffolding
from functools import partial

import jax
import jax.debug as jdebug
import jax.numpy as jnp
from jax import lax, random

Array = jax.Array  # scaffolding: cbfkit.utils.user_types aliases
ControllerCallable = DynamicsCallable = EstimatorCallable = IntegratorCallable = Callable  # scaffolding
NominalControllerCallable = PerturbationCallable = PlannerCallable = SensorCallable = Callable  # scaffolding
Covariance = State = Array  # scaffolding


class ControllerData(NamedTuple):  # cbfkit.utils.user_types, as in the repo
    """Data structure for controller output."""

    error: bool = False
    error_data: Any = None
    complete: bool = False
    sol: Optional[Array] = None
    u: Optional[Array] = None
    u_nom: Optional[Array] = None
    sub_data: Optional[Dict[str, Any]] = None


class PlannerData(NamedTuple):  # cbfkit.utils.user_types, as in the repo
    """Data structure for planner output."""

    u_traj: Optional[Array] = None
    x_traj: Optional[Array] = None
    prev_robustness: Optional[Union[float, Array]] = None
    error: bool = False
    xs: Optional[Array] = None
    sampled_x_traj: Optional[Array] = None


@partial(
    jax.jit,
    static_argnames=[
        "dynamics",
        "integrator",
        "planner",
        "nominal_controller",
        "controller",
        "sensor",
        "estimator",
        "perturbation",
        "progress_callback",
        "num_steps",
        "progress_interval",
    ],
)
def simulator_jit(
    dt: float,
    num_steps: int,
    dynamics: DynamicsCallable,
    integrator: IntegratorCallable,
    planner: Optional[PlannerCallable],
    nominal_controller: Optional[NominalControllerCallable],
    controller: Optional[ControllerCallable],
    sensor: SensorCallable,
    estimator: EstimatorCallable,
    perturbation: PerturbationCallable,
    sigma: jax.Array,
    key: jax.Array,
    initial_state: State,
    initial_controller_data: ControllerData,
    initial_planner_data: PlannerData,
    initial_covariance: Optional[Covariance] = None,
    progress_callback: Optional[Callable[[int], None]] = None,
    progress_interval: int = 1,
) -> Tuple[jax.Array, jax.Array, jax.Array, jax.Array, ControllerData, PlannerData]:
    """JIT-compiled simulation loop using jax.lax.scan.

    Requires:
    - planner_data and controller_data must be initialized with JAX-compatible arrays
      (no None) for any fields that will be used/updated.
    - Optional host-side progress reporting can be enabled via `progress_callback`.

    Returns
    -------
        xs, us, zs, cs, c_datas (stacked), p_datas (stacked)
    """

    # Define the scan step function
    def scan_step(carry, step_idx):
        # Unpack carry
        key, t, x, u, z, c, controller_data, planner_data = carry

        # Split key for this step
        key, subkey = random.split(key)

        # 1. Sensor
        y = sensor(t, x, sigma=sigma, key=key)

        # 2. Estimator - handle both 2-tuple (z, c) and 3-tuple (z, c, K) returns
        est_result = estimator(t, y, z, u, c)
        if len(est_result) == 3:
            z, c, _kalman_gain = est_result
        else:
            z, c = est_result

        # 3. Dynamics (True)
        f, g = dynamics(x)

        # 4. Planner
        if planner is not None:
            key, planner_key = random.split(key)
            # Note: We assume planner signature matches and is JIT-able
            u_planner, planner_data = planner(t, z, None, planner_key, planner_data)
        else:
            u_planner = jnp.zeros((g.shape[1],))

        # 5. Nominal Controller
        # Logic: Check if planner provided u_traj or x_traj

        # Check for u_traj (Control Trajectory)
        # We assume if 'u_traj' field exists and is not None, we might use it.
        # We rely on the structure being static (determined by initial_planner_data).

        use_planner_u = False
        if planner is not None:
            # If planner exists, u_planner is valid.
            if planner_data.u_traj is not None:
                use_planner_u = True

        if use_planner_u:
            u_nom = u_planner
        else:
            # Check x_traj
            use_x_traj = False
            if planner_data.x_traj is not None:
                use_x_traj = True

            if use_x_traj:
                traj = planner_data.x_traj
                # Calculate index
                idx = jnp.round(t / dt).astype(int)
                idx = jnp.clip(idx, 0, traj.shape[1] - 1)
                x_des = traj[:, idx]

                key, nom_key = random.split(key)
                u_nom, _ = nominal_controller(t, z, nom_key, x_des)
            else:
                if nominal_controller is not None:
                    key, nom_key = random.split(key)
                    u_nom, _ = nominal_controller(t, z, nom_key, None)
                else:
                    u_nom = jnp.zeros((g.shape[1],))

        # 6. Controller (CBF/CLF filter)
        key, ctrl_key = random.split(key)
        if controller is not None:
            u, controller_data = controller(t, z, u_nom, ctrl_key, controller_data)
        else:
            u = u_nom

        # Early stop conditions: planner/controller error or goal complete
        stop = (
            controller_data.error
            | controller_data.complete
            | (planner is not None and planner_data.error)
        )

        # 7. Perturbation and integration (skipped if stopped)
        def _integrate(_):
            p = perturbation(x, u, f, g)
            key_int, subkey = random.split(key)

            def vector_field(s):
                f_s, g_s = dynamics(s)
                return f_s + jnp.matmul(g_s, u) + p(subkey)

            return key_int, integrator(x, vector_field, dt)

        def _hold(_):
            return key, x

        key, x_next = lax.cond(stop, _hold, _integrate, operand=None)

        if progress_callback is not None and progress_interval > 0:
            should_report = jnp.logical_or(
                step_idx == num_steps - 1, step_idx % progress_interval == 0
            )

            def _report(idx):
                # Host-side hook so we can surface progress without breaking JIT.
                def _do_report(step_value):
                    progress_callback(int(step_value))

                # ordered=True so progress updates are not reordered or dropped.
                jdebug.callback(_do_report, idx, ordered=True)

            lax.cond(should_report, _report, lambda _: None, step_idx)

        # Update time
        t_next = t + dt

        # Pack carry
        new_carry = (key, t_next, x_next, u, z, c, controller_data, planner_data)

        # Output (trajectory)
        output = (x, u, z, c, controller_data, planner_data)

        return new_carry, output

    # Initialize carry
    # u, z, c need initial values.
    # We use dummy values for the first step logic,
    # but x must be initial_state.

    # Initial control/estimate
    u0 = jnp.zeros((dynamics(initial_state)[1].shape[1],))
    z0 = initial_state  # Naive estimate

    if initial_covariance is not None:
        c0 = initial_covariance
    else:
        c0 = jnp.zeros((initial_state.shape[0], initial_state.shape[0]))

    carry_init = (
        key,
        0.0,  # t=0
        initial_state,
        u0,
        z0,
        c0,
        initial_controller_data,
        initial_planner_data,
    )

    # Run scan
    final_carry, trajectory = lax.scan(scan_step, carry_init, jnp.arange(num_steps))

    # Unpack trajectory
    xs, us, zs, cs, c_datas, p_datas = trajectory

    return xs, us, zs, cs, c_datas, p_datas



"""
Scout: JAX Compile Counter
Measures JIT recompilation frequency when varying simulation horizon.

Run:
  python benchmarks/scout_jit_compile.py
"""
import time
import jax.numpy as jnp
from jax import random

# scaffolding: cbfkit imports replaced by the stand-ins below (cbfkit not installed)
def two_dimensional_single_integrator():  # scaffolding: cbfkit.systems.single_integrator.dynamics
    def dynamics(x):  # scaffolding
        return jnp.zeros(2), jnp.eye(2)  # scaffolding
    return dynamics  # scaffolding


def forward_euler(x, vector_field, dt):  # scaffolding: cbfkit.integration.forward_euler
    return x + dt * vector_field(x)  # scaffolding


def _default_sensor(t, x, sigma=None, key=None):  # scaffolding: simulator.py module-level defaults
    return x  # scaffolding


def _default_estimator(t, y, z, u, c):  # scaffolding
    return y, c  # scaffolding


def _default_perturbation(x, u, f, g):  # scaffolding
    return lambda key: jnp.zeros_like(x)  # scaffolding


class simulator:  # scaffolding: cbfkit.simulation.simulator.execute, cut to its use_jit path
    @staticmethod
    def execute(x0, dt, num_steps, dynamics, integrator, use_jit=True, verbose=False):  # scaffolding
        return simulator_jit(  # scaffolding
            dt=dt, num_steps=num_steps, dynamics=dynamics, integrator=integrator, planner=None,  # scaffolding
            nominal_controller=None, controller=None, sensor=_default_sensor,  # scaffolding
            estimator=_default_estimator, perturbation=_default_perturbation,  # scaffolding
            sigma=jnp.zeros((2, 2)), key=random.PRNGKey(0), initial_state=x0,  # scaffolding
            initial_controller_data=ControllerData(), initial_planner_data=PlannerData(),  # scaffolding
        )[0].block_until_ready()  # scaffolding


class JitMonitor:  # scaffolding: cbfkit.utils.jit_monitor, backed by the harness listener
    @staticmethod
    def reset():  # scaffolding
        pass  # scaffolding

    @staticmethod
    def get_counts():  # scaffolding
        return {"simulator_jit": sum(1 for n in _COMPILED if n == "jit(simulator_jit)")}  # scaffolding

# Create dynamics ONCE to avoid recompilation due to new function object
DYNAMICS = two_dimensional_single_integrator()

def run_sim(num_steps: int) -> float:
    """Runs a minimal simulation and returns execution time."""
    x0 = jnp.array([0.0, 0.0])
    dt = 0.01

    start_time = time.time()

    # Run simulator with JIT enabled
    simulator.execute(
        x0=x0,
        dt=dt,
        num_steps=num_steps,
        dynamics=DYNAMICS,
        integrator=forward_euler,
        use_jit=True,
        verbose=False
    )

    end_time = time.time()
    return end_time - start_time


def main():
    print("🔍 Scout: JAX Compile Diagnostic")
    print("--------------------------------")
    print("Goal: Reveal hidden recompilations when changing 'num_steps'.")
    print("Expectation: Changing 'num_steps' triggers a full JIT recompile.\n")

    # Reset monitor to start clean
    JitMonitor.reset()

    # Define test scenarios: (Description, num_steps)
    scenarios = [
        ("Warmup (N=100)", 100),
        ("Fast (N=100)", 100),
        ("New Horizon (N=101)", 101),
        ("Fast (N=101)", 101),
        ("New Horizon (N=102)", 102),
        ("Revert (N=100)", 100),
    ]

    # Header
    print(f"{'Scenario':<25} | {'Steps':<6} | {'Time (s)':<10} | {'Compiles':<15}")
    print("-" * 65)

    cumulative_compiles = 0

    for name, n in scenarios:
        # Check initial count for simulator_jit
        initial_counts = JitMonitor.get_counts().get("simulator_jit", 0)

        duration = run_sim(n)

        # Check final count
        final_counts = JitMonitor.get_counts().get("simulator_jit", 0)

        delta = final_counts - initial_counts

        # Format compile info: "+1 (Total: 5)" or "0 (Total: 5)"
        # We want to see +0 if it didn't recompile
        if delta > 0:
            compile_str = f"+{delta} (Total: {final_counts})"
        else:
            compile_str = f" 0 (Total: {final_counts})"

        print(f"{name:<25} | {n:<6} | {duration:<10.4f} | {compile_str:<15}")

    print("-" * 65)
    print("\nInterpretation:")
    print(" - 'Time': High values indicate JIT compilation overhead.")
    print(" - 'Compiles': Shows if 'simulator_jit' was recompiled.")
    print(" - Result: Changing 'num_steps' forces recompilation because it is a static argument.")
    print(" - Fix: To avoid recompilation, pad 'num_steps' to a fixed max length or avoid varying it.")


if __name__ == "__main__":
    main()
    _report({"jit(simulator_jit)"}, 6)  # scaffolding

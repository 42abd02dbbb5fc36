# source: https://github.com/gdsfactory/sax/issues/109
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the fix keeps the netlist topology (Si/Sj/Ci/Cj and the boolean match) in numpy, so the nested circuit traces under jax.jit; three wavelengths (traced wl) reuse one compile.
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
# gdsfactory/sax issue #109: the fix (PR #110, 4a0ceac 'keep topology indices in numpy so nested sax.circuit traces cleanly'), src/sax/backends/klu.py after it
import jax
import jax.numpy as jnp
import numpy as np


def _sdict_to_scoo(sdict):
    all_ports = {}
    for p1, p2 in sdict:
        all_ports[p1] = None
        all_ports[p2] = None
    ports_map = {p: int(i) for i, p in enumerate(all_ports)}
    Sx = jnp.stack(jnp.broadcast_arrays(*sdict.values()), -1)
    Si = jnp.array([ports_map[p] for _, p in sdict])
    Sj = jnp.array([ports_map[p] for p, _ in sdict])
    return Si, Sj, Sx, ports_map


def scoo(S):  # scaffolding: sax.scoo for SDicts and already-converted SCoo tuples
    return _sdict_to_scoo(S) if isinstance(S, dict) else S  # scaffolding


def analyze_instances_klu(
    instances,
    models,
):
    instances = instances  # scaffolding: sax.into validation left out
    model_names = set()
    for i in instances.values():
        model_names.add(i["component"])
    # Build the per-model SCoo with the topology indices ``Si``/``Sj``
    # cast to numpy. Indices are pure netlist topology (which (i, j)
    # entries of the model's S-matrix are non-zero) and never depend on
    # traced parameters, so concretizing them here avoids tracer-only
    # operations downstream — specifically, the boolean fancy indexing
    # in ``analyze_circuit_klu``. Only ``Sx`` (the actual S-values) stays
    # in jnp, where it must be traceable. This is a klu-backend-local
    # workaround — ``sax.scoo`` and the rest of SAX continue to return
    # jnp indices for backward compatibility with other backends.
    dummy_models = {k: _scoo_with_numpy_indices(models[k]()) for k in model_names}
    dummy_instances = {}
    for k, i in instances.items():
        dummy_instances[k] = dummy_models[i["component"]]
    return dummy_instances


def _scoo_with_numpy_indices(s):
    if isinstance(s, dict):
        all_ports: dict[str, None] = {}
        for p1, p2 in s:
            all_ports.setdefault(p1, None)
            all_ports.setdefault(p2, None)
        ports_map = {p: int(i) for i, p in enumerate(all_ports)}
        Si = np.array([ports_map[p] for _, p in s], dtype=np.int32)
        Sj = np.array([ports_map[p] for p, _ in s], dtype=np.int32)
        Sx = jnp.stack(jnp.broadcast_arrays(*s.values()), -1)
        return Si, Sj, Sx, ports_map
    si, sj, sx, ports_map = scoo(s)
    return np.asarray(si, dtype=np.int32), np.asarray(sj, dtype=np.int32), sx, ports_map


def analyze_circuit_klu(
    analyzed_instances,
    nets,
    ports,
):
    inverse_ports = {v: k for k, v in ports.items()}
    port_map = {k: i for i, k in enumerate(ports)}

    idx, Si, Sj, instance_ports = 0, [], [], {}
    for name, instance in analyzed_instances.items():
        si, sj, _, ports_map = scoo(instance)
        Si.append(si + idx)
        Sj.append(sj + idx)
        instance_ports.update({f"{name},{p}": i + idx for p, i in ports_map.items()})
        idx += len(ports_map)

    n_col = idx
    n_rhs = len(port_map)

    # Keep Si / Sj as numpy — they're pure topology (S-matrix nonzero
    # coordinates per instance) and feed into concrete-only operations
    # below (boolean fancy indexing, comparisons). Going through jnp here
    # would turn them into tracers when ``analyze_circuit_klu`` runs
    # inside an outer JAX trace.
    Si = np.concatenate(Si, -1)
    Sj = np.concatenate(Sj, -1)

    pairs: set[tuple[int, int]] = set()
    for net in nets:
        p1_idx = int(instance_ports[net["p1"]])
        p2_idx = int(instance_ports[net["p2"]])
        pairs.add((p1_idx, p2_idx))
        pairs.add((p2_idx, p1_idx))
    sorted_pairs = sorted(pairs)
    Ci = np.array([p[0] for p in sorted_pairs], dtype=np.int32)
    Cj = np.array([p[1] for p in sorted_pairs], dtype=np.int32)

    Cextmap = {
        int(instance_ports[k]): int(port_map[v]) for k, v in inverse_ports.items()
    }
    Cexti = jnp.stack(list(Cextmap.keys()), 0)
    Cextj = jnp.stack(list(Cextmap.values()), 0)
    Cext = jnp.zeros((n_col, n_rhs), dtype=complex).at[Cexti, Cextj].set(1.0)

    # All in numpy — pure topology, no traced parameters touch this.
    match_2d = Cj[None, :] == Si[:, None]  # (len_Si, len_Cj)
    CSi = np.broadcast_to(Ci[None, :], match_2d.shape)[match_2d]
    s_idx_grid = np.broadcast_to(np.arange(len(Si))[:, None], match_2d.shape)
    cs_s_indices_np = s_idx_grid[match_2d]
    CSj = Sj[cs_s_indices_np]

    Ii = Ij = np.arange(n_col)
    I_CSi = jnp.asarray(np.concatenate([CSi, Ii], -1), dtype=jnp.int32)
    I_CSj = jnp.asarray(np.concatenate([CSj, Ij], -1), dtype=jnp.int32)
    cs_s_indices = jnp.asarray(cs_s_indices_np)

    # scaffolding: klujax.analyze and the rest of the analysis are left out (klujax not installed)
    return n_col, cs_s_indices, Si, Sj, Cext, CSi, CSj  # scaffolding


def straight(*, wl=1.55, length=10.0):  # scaffolding: a SAX waveguide model
    t = jnp.exp(2j * jnp.pi * 2.4 * length / wl)  # scaffolding
    return {("o1", "o2"): t, ("o2", "o1"): t}  # scaffolding


def coupler_4port(*, wl=1.55, kappa=0.5):  # scaffolding: a SAX directional-coupler model
    tau, k = jnp.sqrt(1 - kappa) + 0 * wl, 1j * jnp.sqrt(kappa)  # scaffolding
    return {("o1", "o4"): tau, ("o4", "o1"): tau, ("o2", "o3"): tau, ("o3", "o2"): tau,  # scaffolding
            ("o1", "o3"): k, ("o3", "o1"): k, ("o2", "o4"): k, ("o4", "o2"): k}  # scaffolding


class sax:  # scaffolding: sax.circuit with the klu backend, reduced to its analysis step and a cascade of the instances' S-values
    @staticmethod
    def circuit(netlist, models):  # scaffolding
        instances = {k: {"component": v} for k, v in netlist["instances"].items()}  # scaffolding
        nets = [{"p1": a, "p2": b} for a, b in netlist["connections"].items()]  # scaffolding
        analyzed = analyze_circuit_klu(analyze_instances_klu(instances, models), nets, netlist["ports"])  # scaffolding

        def sub(wl=1.55, **settings):  # scaffolding
            out = 1.0 + 0j  # scaffolding
            for name, comp in netlist["instances"].items():  # scaffolding
                out = out * scoo(models[comp](wl=wl, **settings.get(name, {})))[2].sum()  # scaffolding
            return {("o1", "o3"): out * analyzed[0]}  # scaffolding
        return sub, None  # scaffolding


def coupler_with_sbends(*, wl=1.55, length=10.0, kappa=0.5):
    sub, _ = sax.circuit(
        netlist={
            "instances": {"s1": "st", "s2": "st", "dc": "cp"},
            "connections": {"s1,o2": "dc,o1", "s2,o2": "dc,o2"},
            "ports": {"o1": "s1,o1", "o2": "s2,o1",
                      "o3": "dc,o3", "o4": "dc,o4"},
        },
        models={"st": straight, "cp": coupler_4port},
    )
    return sub(wl=wl, s1={"length": length / 2}, s2={"length": length / 2},
               dc={"kappa": kappa})


print(abs(coupler_with_sbends(wl=1.55)[("o1", "o3")]))  # scaffolding: eager call works
jitted = jax.jit(coupler_with_sbends)
for w in (1.50, 1.55, 1.60):  # scaffolding: three wavelengths
    s = jitted(wl=w)
print(abs(s[("o1", "o3")]))  # scaffolding
_report({"jit(coupler_with_sbends)"}, 3)  # scaffolding

# source: https://github.com/rajarshi99/gnn-jax/commit/46661f1daa5e7e44da11f2580de9fbc666012f29
# expect: shape-churn at line 514
# runtime: COMPILES 3 CALLS 9
# why: every CylinderFlow trajectory has its own mesh, so node_in, edge_in, senders and receivers change size from one trajectory to the next and the jitted train_step recompiles for each mesh (3 compiles for 3 meshes x 3 steps); the jitted accumulate_stats does the same.
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


# src/gnn_jax/{mlp,normalizer,gnn_layer,meshgraphnet}.py, NodeType from src/gnn_jax/data/deepmind_cylinderflow.py,
# then examples/cylinderflow/meshgraphnet.py, as at the commit; imports between these modules are inlined
import enum

# ---- src/gnn_jax/mlp.py ----
import jax
import jax.numpy as jnp
from flax import linen as nn

from typing import Sequence, Callable

class MLP(nn.Module):
    """
    Multilayer Perceptron (MLP)

    Parameters
    - layer_sizes: list of integers
        Output sizes of each of the layers, including final
    - activations: list of functions
        To be applied at each layer including final

    Note:
        Input size is fixed at init from the #cols of dummy input x
        model = MLP(layer_sizes = [32, 3], activations = [nn.relu]*2)
        params = model.init(key, x)
    """
    layer_sizes: Sequence[int]
    activations: Sequence[Callable[[jnp.ndarray], jnp.ndarray]]

    @nn.compact
    def __call__(self, x:jnp.ndarray):
        diff_in_lens = len(self.layer_sizes) - len(self.activations)
        if diff_in_lens > 0:
            activations = self.activations + (jax.nn.identity,)*diff_in_lens
        else:
            activations = self.activations

        for act, lsize in zip(activations, self.layer_sizes):
            x = act(nn.Dense(features=lsize)(x))

        return x


# ---- src/gnn_jax/normalizer.py ----
import flax.linen as nn
import jax
import jax.numpy as jnp

class Normalizer(nn.Module):
    """
    Online normalizer based on Welford's algo
    Accumulates statistics from DATA
    No trainable parameters
    """

    feature_dim: int
    eps: float = 1e-8

    def setup(self):
        self.count = self.variable(
                "stats", "count",
                lambda: jnp.array(0, dtype=jnp.int64)
                )
        self.mean = self.variable(
                "stats", "mean",
                lambda: jnp.zeros(self.feature_dim, dtype=jnp.float64)
                )
        self.M2 = self.variable(
                "stats", "M2",
                lambda: jnp.zeros(self.feature_dim, dtype=jnp.float64)
                )
        self.std = self.variable(
                "stats", "std",
                lambda: jnp.ones(self.feature_dim, dtype=jnp.float64)
                )


    # ------------------------------------------------------------------
    # statistics update (DATA ONLY)
    # ------------------------------------------------------------------

    def accumulate(self, x: jnp.ndarray):
        """
        CHECK THE LOGIC ONCE AGAIN
        Accumulate statistics from data.

        x: [..., feature_dim]
        returns number of features accumulated
        """
        if x.shape[-1] != self.feature_dim:
            raise ValueError("Feature dimension mismatch")

        # flatten all leading dims
        x_batch = x.reshape(-1, self.feature_dim)
        n_batch = x_batch.shape[0]

        # Calculate new count
        count_new = self.count.value + n_batch

        # Calculate new mean
        mean_batch = jnp.mean(x_batch, axis=0)
        delta = mean_batch - self.mean.value
        mean_new = self.mean.value + delta*n_batch/count_new

        # Calculate new M2
        diff = x_batch - mean_batch
        M2_batch = jnp.sum(diff*diff, axis=0)
        M2_new = self.M2.value + M2_batch + delta*delta * self.count.value*n_batch/count_new

        # Calculate new std
        var = M2_new/count_new
        std_new = jnp.sqrt(jnp.maximum(var,self.eps))

        self.count.value = count_new
        self.mean.value = mean_new
        self.M2.value = M2_new
        self.std.value = std_new

    # ------------------------------------------------------------------
    # transforms
    # ------------------------------------------------------------------

    def normalize(self, x: jnp.ndarray) -> jnp.ndarray:
        """
        Normalize using current statistics.
        """
        return (x - self.mean.value) / self.std.value

    def denormalize(self, z: jnp.ndarray) -> jnp.ndarray:
        """
        Inverse transform back to physical space.
        """
        return z * self.std.value + self.mean.value


# ---- src/gnn_jax/gnn_layer.py ----
import jax
import jax.numpy as jnp
from flax import linen as nn

class GNNLayer(nn.Module):
    msg: nn.Module
    node_update: nn.Module
    edge_update: nn.Module

    @nn.compact
    def __call__(self, h, e, senders, receivers):
        hs = h[senders]
        hr = h[receivers]
        m_in = jnp.concatenate([e, hs, hr], axis=-1)
        m = self.msg(m_in)

        agg = jax.ops.segment_sum(m, receivers, num_segments=h.shape[0])
        # u_in = jnp.concatenate([h, agg], axis=-1)
        # dh = self.upd_mlp(u_in)

        h_new = self.node_update(h, agg)
        e_new = self.edge_update(e, m)
        return h_new, e_new


# ---- src/gnn_jax/meshgraphnet.py ----
from flax import linen as nn

# from gnn_jax.gnn_layer import GNNLayer  # scaffolding: inlined above
# from gnn_jax.normalizer import Normalizer  # scaffolding: inlined above

from pathlib import Path
import orbax.checkpoint as ocp

class MeshGraphNet(nn.Module):
    latent_dim: int

    node_feat_dim: int
    node_enc: nn.Module

    edge_feat_dim: int
    edge_enc: nn.Module

    message_passing_steps: int
    node_update_factory: callable
    edge_update_factory: callable
    msg_compute_factory: callable

    node_out_dim: int
    dec: nn.Module

    def setup(self):
        self.node_norm = Normalizer(feature_dim=self.node_feat_dim, name="node_norm")
        self.edge_norm = Normalizer(feature_dim=self.edge_feat_dim, name="edge_norm")

        self.gnn_layers = [
                GNNLayer(
                    msg = self.msg_compute_factory(l),
                    node_update = self.node_update_factory(l),
                    edge_update = self.edge_update_factory(l),
                    )
                for l in range(self.message_passing_steps)
                ]

        self.out_data_norm = Normalizer(feature_dim=self.node_out_dim, name="out_data_norm")

    def __call__(self, node_in, edge_in, senders, receivers):
        h = self.node_enc(self.node_norm.normalize(node_in))
        e = self.edge_enc(self.edge_norm.normalize(edge_in))

        for gnn_layer in self.gnn_layers:
            h, e = gnn_layer(h, e, senders, receivers)

        # decoder outputs delta_v (dvx, dvy)
        delta_v = self.dec(h)
        return self.out_data_norm.denormalize(delta_v)

    def accumulate_norms(self, node_in, edge_in, delta_v_gt):
        self.node_norm.accumulate(node_in)
        self.edge_norm.accumulate(edge_in)
        self.out_data_norm.accumulate(delta_v_gt)


# -------------------------------------------------------------
# Checkpointing helpers
# -------------------------------------------------------------

_checkpointer = ocp.StandardCheckpointer()

def save_checkpoint(step, params, stats, epoch, ckpt_dir: Path):
    state = {
        "params": params,
        "stats": stats,
        "step": step,
        "epoch": epoch,
    }
    _checkpointer.save(ckpt_dir / f"model_{epoch:06d}", state)

def load_checkpoint(ckpt_path: Path):
    return _checkpointer.restore(ckpt_path)


def save_checkpoint(*args, **kwargs):  # scaffolding: replaces the orbax save above (no files written);
    pass  # scaffolding: it also absorbs the example's 6-argument call, a plain TypeError at the parent commit


# ---- src/gnn_jax/data/deepmind_cylinderflow.py (NodeType) ----
class NodeType(enum.IntEnum):
    """
    Integer codes identifying the physical role of mesh nodes in DeepMind
    mesh-based simulation datasets.

    These labels are shared across multiple datasets (e.g. CylinderFlow, airfoils)
    and indicate whether a node represents fluid interior, boundaries, inflow/outflow regions, or solid obstacles.
    """
    NORMAL = 0
    OBSTACLE = 1
    AIRFOIL = 2
    HANDLE = 3
    INFLOW = 4
    OUTFLOW = 5
    WALL_BOUNDARY = 6
    SIZE = 9


def threaded_trajectory_iterator(train_path, meta_path):  # scaffolding: stands in for the TFRecord reader; three small meshes of different sizes
    import numpy as _np  # scaffolding
    rs = _np.random.RandomState(0)  # scaffolding
    for n_nodes, n_edges in [(20, 50), (23, 55), (27, 60)]:  # scaffolding: CylinderFlow meshes differ in node/edge count
        yield {  # scaffolding
            "mesh_pos": rs.rand(1, n_nodes, 2).astype(_np.float32),  # scaffolding
            "node_type": rs.choice([0, 4, 5, 6], size=(1, n_nodes, 1)).astype(_np.int32),  # scaffolding
            "velocity": rs.randn(4, n_nodes, 2).astype(_np.float32),  # scaffolding
            "senders": rs.randint(0, n_nodes, size=n_edges).astype(_np.int32),  # scaffolding
            "receivers": rs.randint(0, n_nodes, size=n_edges).astype(_np.int32),  # scaffolding
        }  # scaffolding


# ---- examples/cylinderflow/meshgraphnet.py ----
"""
Trying to reproduce DeepMind MeshGraphNet CylinderFlow example.
Node input: velocity (vx,vy) + node_type one-hot.
Target: change to next-step velocity (delta vx, delta vy).

TF is used only to decode the TFRecord into numpy arrays via trajectory_iterator_np.
All graph construction (senders/receivers), edge features, and training are JAX.
"""

import argparse
import yaml
from pathlib import Path

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn

import csv

# from gnn_jax.data.deepmind_cylinderflow import threaded_trajectory_iterator, NodeType  # scaffolding: defined above
# from gnn_jax.mlp import MLP  # scaffolding: inlined above
# from gnn_jax.meshgraphnet import MeshGraphNet, save_checkpoint  # scaffolding: inlined above

# -------------------------
# Crucial MGN details
# -------------------------
class NodeUpdate(nn.Module):
    """
    Inputs
        -Node embeddings/feats
        -Aggregated messages
    Returns: Updated Node Embeddings with residual connection
    """
    latent_dim: int
    num_hidden_layers: int

    @nn.compact
    def __call__(self, h, agg):
        x = jnp.concatenate([h, agg], axis=-1)
        dh = MLP(
            [self.latent_dim]*self.num_hidden_layers + [h.shape[-1]],
            [nn.relu]*self.num_hidden_layers
        )(x)
        return h + dh # Residual connection

class EdgeUpdate(nn.Module):
    def __call__(self, e, m):
        return e + m # Residual connection

# -------------------------
# Training utilities
# -------------------------

def create_variables(rng, model):
    # dummy init (only feature dims matter)
    N = 4
    E = 6
    node_dim = model.node_feat_dim
    node_in = jnp.zeros((N, node_dim), dtype=jnp.float32)
    edge_in = jnp.zeros((E, model.edge_feat_dim), dtype=jnp.float32)
    senders = jnp.zeros((E,), dtype=jnp.int32)
    receivers = jnp.zeros((E,), dtype=jnp.int32)

    variables = model.init(rng, node_in, edge_in, senders, receivers)
    return variables["params"], variables["stats"]

# -------------------------
# Main
# -------------------------

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", type=str, required=True)
    args = parser.parse_args()

    with open(args.config, "r") as f:
        cfg = yaml.safe_load(f)

    data_dir = Path(cfg["dataset"]["dir"])
    train_path = data_dir / cfg["dataset"]["train"]
    meta_path = data_dir / cfg["dataset"]["meta"]

    latent_dim = int(cfg["model"].get("latent_dim", 128))
    mp_steps = int(cfg["model"].get("message_passing_steps", 8))
    lr = float(cfg["train"].get("learning_rate", 1e-4))
    steps = int(cfg["train"].get("steps", 500))
    epochs = int(cfg["train"].get("epochs", 5))
    max_steps_per_traj_for_stat_acc = int(cfg["train"].get("max_steps_per_traj_for_stat_acc", 5))
    seed = int(cfg["train"].get("seed", 0))
    ckpt_dir = Path(cfg["output"]["ckpt_dir"])
    log_path = Path(cfg["output"]["log"])
    num_types = NodeType.SIZE

    # --- Model/state ---
    model = MeshGraphNet(
            latent_dim=latent_dim,
            node_feat_dim=num_types+2,
            node_enc=MLP([latent_dim]*2, [nn.relu]*1, name="node_enc"),
            edge_feat_dim=3,
            edge_enc=MLP([latent_dim]*2, [nn.relu]*1, name="edge_enc"),
            message_passing_steps=mp_steps,
            node_update_factory=lambda l: NodeUpdate(
                latent_dim=latent_dim,
                num_hidden_layers=1,
                name=f"node_{l}"
                ),
            edge_update_factory=lambda l: EdgeUpdate(),
            msg_compute_factory=lambda l: MLP(
                [latent_dim]*2,
                [nn.relu]*1,
                name=f"msg_{l}"),
            node_out_dim=2,
            dec=MLP([latent_dim]*1 + [2], [nn.relu]*1, name="dec"),
            )

    rng = jax.random.PRNGKey(seed)
    rng, init_rng = jax.random.split(rng)
    params, stats = create_variables(init_rng, model)
    tx = optax.adam(lr)
    opt_state = tx.init(params)

    @jax.jit
    def train_step(params, stats, opt_state,
                   node_in, edge_in, senders, receivers, target_delta_v, mask):

        def loss_fn(params):
            vars_ = {"params": params, "stats": stats}
            pred_delta_v = model.apply(
                vars_, node_in, edge_in, senders, receivers
            )
            err = pred_delta_v - target_delta_v
            mse = jnp.sum((err ** 2) * mask[:, None]) / (jnp.sum(mask) + 1e-8)
            return mse

        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)

        return params, opt_state, loss

    @jax.jit
    def accumulate_stats(stats, node_in, edge_in, target_delta_v):
        vars_ = {"params": {}, "stats": stats}
        _, mutated = model.apply(
            vars_,
            node_in, edge_in, target_delta_v,
            method=MeshGraphNet.accumulate_norms,
            mutable=["stats"],
        )
        return mutated["stats"]

    traj_it = threaded_trajectory_iterator(train_path, meta_path)

    log_f = open(log_path, "w")
    log_writer = csv.writer(log_f)
    log_writer.writerow(["epoch", "step", "traj_id", "loss"])

    epoch = 0
    traj_id = 0

    while epoch < epochs:
        traj = next(traj_it, None)

        if traj is None:
            log_writer.writerow([epoch, step, traj_id, loss_val])
            log_f.flush()
            save_checkpoint(step, params, stats, epoch, epoch, ckpt_dir)
            print(f"Saving end of epoch {epoch} in {ckpt_dir}")

            epoch += 1
            traj_id = 0
            continue

        # Convert required arrays to JAX
        mesh_pos = jnp.asarray(traj["mesh_pos"][0], dtype=jnp.float32)       # (N,2)
        node_type = jnp.asarray(traj["node_type"][0, :, 0], dtype=jnp.int32) # (N,)
        vel = jnp.asarray(traj["velocity"], dtype=jnp.float32)               # (T,N,2)
        senders = jnp.asarray(traj["senders"], dtype=jnp.int32)              # (E,)
        receivers = jnp.asarray(traj["receivers"], dtype=jnp.int32)          # (E,)

        N = mesh_pos.shape[0]
        T = vel.shape[0]

        # --- Edge features: dx, dy, dist ---
        rel = mesh_pos[receivers] - mesh_pos[senders]                         # (E,2)
        dist = jnp.linalg.norm(rel, axis=1, keepdims=True)                    # (E,1)
        edge_in = jnp.concatenate([rel, dist], axis=1).astype(jnp.float32)    # (E,3)

        # --- Node type one-hot ---
        node_type_oh = jax.nn.one_hot(node_type, num_classes=num_types, dtype=jnp.float32)  # (N,num_types)

        # --- Loss mask: only NORMAL and OUTFLOW nodes ---
        mask = (
                (node_type == NodeType.NORMAL) |
                (node_type == NodeType.OUTFLOW)
                ).astype(jnp.float32)        # (N,)


        # --- Train by sampling (t -> t+1) from the trajectory ---
        for step in range(steps):
            rng, sub = jax.random.split(rng)
            t = int(jax.random.randint(sub, (), 0, T - 1))
            v_t = vel[t]       # (N,2)
            v_t1 = vel[t + 1]  # (N,2)
            target_delta_v = v_t1 - v_t
            node_in = jnp.concatenate([v_t, node_type_oh], axis=-1)

            if epoch == 0 and step < max_steps_per_traj_for_stat_acc:
                stats = accumulate_stats(stats, node_in, edge_in, target_delta_v)

            # train params
            params, opt_state, loss = train_step(
                params, stats, opt_state,
                node_in, edge_in, senders, receivers,
                target_delta_v, mask
            )

            if step % 100 == 0:
                n_acc = stats["edge_norm"]["count"]
                loss_val = float(loss)
                print(f"epoch {epoch:06d} | step {step:06d} | traj_id {traj_id:06d} | loss {loss_val:.6e} | n_acc {n_acc}")
                log_writer.writerow([epoch, step, traj_id, loss_val])

        traj_id += 1

    log_f.close()
    print("Logs saved at {str(log_path)}")

# if __name__ == "__main__":  # scaffolding: run main() below with a small config instead
#     main()  # scaffolding



# ---- scaffolding: a small config file in a temporary directory, then main() ----
import sys, tempfile, os  # scaffolding
_tmp = tempfile.mkdtemp()  # scaffolding
with open(os.path.join(_tmp, "config.yaml"), "w") as _f:  # scaffolding
    yaml.safe_dump({"dataset": {"dir": _tmp, "train": "train.tfrecord", "meta": "meta.json"},  # scaffolding
                    "model": {"latent_dim": 16, "message_passing_steps": 2},  # scaffolding
                    "train": {"learning_rate": 1e-3, "steps": 3, "epochs": 1, "max_steps_per_traj_for_stat_acc": 1, "seed": 0},  # scaffolding
                    "output": {"ckpt_dir": os.path.join(_tmp, "ckpt"), "log": os.path.join(_tmp, "log.csv")}}, _f)  # scaffolding
sys.argv = ["train.py", "--config", os.path.join(_tmp, "config.yaml")]  # scaffolding
try:  # scaffolding
    main()  # scaffolding
    _report({"jit(train_step)"}, 9)  # scaffolding: 3 trajectories x 3 steps
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding

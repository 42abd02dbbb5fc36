# source: https://github.com/stevenygd/jax-diffusion/blob/43ef0465df2348200ef295924d41f6a0eba62589/diffusion/utils/log_utils.py
# expect: jit-in-loop-or-body at line 61
# runtime: COMPILES 6 CALLS 6
# why: log_loss_per_time wraps _compute_stats_ in a new @jax.jit on every call, and train.py calls it at every logging step, so each log step retraces and recompiles it.

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
# diffusion/utils/log_utils.py of stevenygd/jax-diffusion at 43ef046 (verbatim), driven by the logging branch of its train.py loop
import jax
import jax.numpy as jnp


class wandb:  # scaffolding: stand-in for wandb (not installed, no network)
    @staticmethod  # scaffolding
    def log(d, commit=True):  # scaffolding
        pass  # scaffolding


def log_dit_stats(aux):
    if "aux" in aux and "dit_blocks" in aux["aux"]:
        # and "dit_block" in aux["aux"]["dit_blocks"]):
        for i, block_aux in enumerate(aux["aux"]["dit_blocks"]):
            if "dit_block" in block_aux:
                stats = block_aux["dit_block"]
                wandb.log({
                    f"dit_stats/{k}_layer{i}": v.mean() 
                    for k, v in stats.items()
                }, commit=False)
            if "attn.norms" in  block_aux:
                norm_stats = block_aux["attn.norms"]
                wandb.log({
                    f"mttt_stats/{k}_layer{i}": v.mean() 
                    for k, v in norm_stats.items()
                }, commit=False)


def log_loss_per_time(aux, num_bins=4, eps=1e-6):
    # Compute per time step loss
    
    @jax.jit
    def _compute_stats_(aux):
        loss_per_time = {
            "loss": {"cnt": 0, "val": 0},
            "mse": {"cnt": 0, "val": 0},
            "vb": {"cnt": 0, "val": 0},
            "moe_loss": {"cnt": 0, "val": 0},
        }
        keys = list(aux["loss_per_t"].keys())
        for key in keys:
            val_new = aux["loss_per_t"][key].reshape(-1)
            cnt_new = aux["t_count"].reshape(-1)
            val_orig = loss_per_time[key]["val"]
            cnt_orig = loss_per_time[key]["cnt"]
            new_ttl = cnt_orig + cnt_new + eps
            loss_per_time[key]["val"] = (
                val_orig * (cnt_orig / new_ttl) + val_new / new_ttl)
            loss_per_time[key]["cnt"] = cnt_orig + cnt_new
        splitted_per_t = {
            key: jnp.array(
                jnp.split(loss_per_time[key]["val"], num_bins)
            ).mean(axis=-1) for key in keys 
        }
        return splitted_per_t
    
    splitted_per_t = _compute_stats_(aux)
    _N_STATS_CALLS.append(1)  # scaffolding
    wandb.log(
        # Per time step
        {
            f"loss_per_t/{key}/{i}-{num_bins}": val[i]
            for i in range(num_bins) 
            for key, val in splitted_per_t.items()
        }, commit=False
    ) 


_N_STATS_CALLS = []  # scaffolding
_NUM_TIMESTEPS = 16  # scaffolding: diffusion.num_timesteps (1000 in the repo)


@jax.jit  # scaffolding: stand-in for train_step_fn, returning the aux that train_utils.compute_stats builds
def train_step_fn(ema_state, x, y, spls):  # scaffolding
    t = jax.random.randint(spls, (x.shape[0],), 0, _NUM_TIMESTEPS)  # scaffolding
    losses = jnp.mean((x - ema_state) ** 2, axis=-1)  # scaffolding
    loss_dict = {"loss": losses.mean(), "mse": losses.mean(), "vb": 0.0 * losses.mean()}  # scaffolding
    aux = {  # scaffolding
        "loss_dict": loss_dict,  # scaffolding
        "t_count": jnp.zeros((_NUM_TIMESTEPS,)).at[t].add(1),  # scaffolding
        "loss_per_t": jax.tree_util.tree_map(lambda l: jnp.zeros((_NUM_TIMESTEPS,)).at[t].add(l), loss_dict),  # scaffolding
        "aux": {},  # scaffolding
        "loss_val": losses.mean(),  # scaffolding
        "grad_norm": jnp.float32(1.0),  # scaffolding
    }  # scaffolding
    return ema_state * 0.99, aux  # scaffolding


# train.py training loop (logging branch), with args.log_loss_per_t = True
ema_state = jnp.zeros((8,))  # scaffolding
train_rng = jax.random.PRNGKey(0)  # scaffolding
start_iter, total_iters, log_every = 0, 6, 100  # scaffolding: 6 steps instead of the run length
for train_steps in range(start_iter, total_iters):
    spls, train_rng = jax.random.split(train_rng)
    x, y = jnp.ones((4, 8)) * train_steps, jnp.zeros((4,), jnp.int32)  # scaffolding: next(loader)
    ema_state, aux = train_step_fn(ema_state, x, y, spls)
    # Log loss values:
    if (train_steps % log_every == 0 or 
        train_steps < 10 or
        (train_steps < 100 and train_steps % 10 == 0)):
        aux = jax.device_get(aux)
        loss_val = aux["loss_val"]
        gnorm = aux["grad_norm"]
        diff_loss = aux["loss_dict"]["loss"]
        log_dit_stats(aux) 
        log_loss_per_time(aux)

_report({"jit(_compute_stats_)"}, len(_N_STATS_CALLS))  # scaffolding

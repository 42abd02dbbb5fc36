# source: https://github.com/yu-ki3406/Syumi-note/blob/5f10e19e32a8ba1aa7c7472ffbc10d21cca1f3d9/notebooks/Conservative_Value_iteration.ipynb
# expect: none
# runtime: COMPILES 16 CALLS 320
# why: Bellman_operator marks the float hyper-parameters tau and sigma static (needed for its Python if/elif); they only change in the outer sweep, so it compiles once per (tau, sigma) pair and the 20 inner iterations reuse it.

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
# --- cell 6 ---
import numpy as np
from typing import NamedTuple

S = 5 #state_size
A = 3  #action_size
S_array = np.arange(S) #state_set
A_array = np.arange(A) #action_set
gamma = 0.99 
rew = np.random.rand(S,A) * 10 #報酬

P = np.random.rand(S*A, S) #遷移確率
P = P / np.sum(P,axis=-1,keepdims=True)
P = P.reshape(S,A,S)
np.testing.assert_almost_equal(P.sum(axis=-1),1) #確率1になっているか確認

# MDPの定義
class MDP(NamedTuple):
    S_array : np.array
    A_array : np.array
    gamma : float
    rew : np.array
    P : np.array

    @property
    def S(self) -> int:
        return len(self.S_array)

    @property
    def A(self) -> int:
        return len(self.A_array)

mdp = MDP(S_array,A_array,gamma,rew,P)
print(mdp.rew.shape)
print(mdp.P.shape)

# --- cell 7 ---
import jax
import jax.numpy as jnp

@jax.jit
def mellowmax_operator(beta:float, action_size:int,q:jnp.ndarray):

    return jnp.log(jnp.sum(jnp.exp(beta*q -(beta*q).max()),axis=-1)/ action_size) / beta + (beta * q).max() / beta

@jax.jit
def get_policy(q:jnp.ndarray, beta:float):
    max_q = (beta * q).max()
    return jnp.exp(beta*q - max_q)/ jnp.sum(jnp.exp(beta*q - max_q),axis=-1)

# --- cell 8 ---
from functools import partial

@partial(jax.jit,static_argnames=('tau','sigma'))
def Bellman_operator(mdp:MDP, q:jnp.array,tau:float,sigma:float):
    S,A = mdp.S,mdp.A
    assert q.shape == (S,A)
    # no KL penalty
    if tau == 0.0:
        alpha = 0.0
        beta = sigma

    # no entropy bonus    
    elif sigma == 0.0:
        alpha = 1.0
        beta = tau
        
    else:
        alpha = tau / (tau + sigma)
        beta = 1 / (tau + sigma)

    mb_q = mellowmax_operator(beta,A,q)
    
    T_b = mdp.rew + mdp.gamma * mdp.P @ mb_q
    
    hard_gap = alpha * (q - jnp.expand_dims(mb_q,axis=1))

    assert T_b.shape == (S,A)
    assert hard_gap.shape == (S,A)

    return T_b + hard_gap

# --- cell 9 (plotting dropped) ---
key = jax.random.PRNGKey(0)
S,A = mdp.S, mdp.A
# pi = jax.random.uniform(key=key,shape=(S,A))
# pi = pi / jnp.sum(pi,axis=1,keepdims=True)

taus = [0.0,0.1,0.3,0.9,]
sigmas = [0.0,0.1,0.3,0.9,]
for tau in taus:
    for sigma in sigmas:
        
        q_before = jax.random.uniform(key = key,shape = (S,A))
        errors = []
        
        for i in range(20):  # scaffolding: range(1000) in the notebook
            q_after = Bellman_operator(mdp,q_before,tau=tau,sigma=sigma)
            errors.append(np.abs(q_after - q_before).max())
            q_before = q_after
_report({"jit(Bellman_operator)", "jit(mellowmax_operator)"}, 320)  # scaffolding: 16 (tau, sigma) pairs x 20 steps

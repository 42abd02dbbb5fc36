# source: https://github.com/sotetsuk/pgx/pull/262
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: before PR #262 every helper of pgx/animal_shogi.py carries its own @jax.jit and the jitted _action_to_dlaction calls the jitted _dlshogi_action/_hand_to_direction/_point_to_direction inside lax.cond branches; the inner jits are inlined into the outer trace, so _action_to_dlaction compiles once for all actions and the helpers never compile on their own.
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
from typing import Tuple

import jax
import jax.numpy as jnp
from flax import struct

TRUE = jnp.bool_(True)
FALSE = jnp.bool_(False)


# 指し手のdataclass
@struct.dataclass
class JaxAnimalShogiAction:
    # 駒打ちかどうか
    is_drop: jnp.ndarray = struct.field(default_factory=lambda: FALSE)  # scaffolding: Python 3.11 dataclasses reject array defaults
    # piece: 動かした(打った)駒の種類
    piece: jnp.ndarray = struct.field(default_factory=lambda: jnp.int32(0))  # scaffolding: as above
    # final: 移動後の座標
    to: jnp.ndarray = struct.field(default_factory=lambda: jnp.int32(0))  # scaffolding: as above
    # 移動前の座標
    from_: jnp.ndarray = struct.field(default_factory=lambda: jnp.int32(0))  # scaffolding: as above
    # captured: 取られた駒の種類。駒が取られていない場合は0
    captured: jnp.ndarray = struct.field(default_factory=lambda: jnp.int32(0))  # scaffolding: as above
    # is_promote: 駒を成るかどうかの判定
    is_promote: jnp.ndarray = struct.field(default_factory=lambda: FALSE)  # scaffolding: as above


# dlshogiのactionはdirection(動きの方向)とto（駒の処理後の座標）に依存
@jax.jit
def _dlshogi_action(direction: int, to: int) -> int:
    return direction * 12 + to


# fromの座標とtoの座標からdirを生成
@jax.jit
def _point_to_direction(_from: int, to: int, promote: int, turn: int) -> int:
    direction = -1
    dis = to - _from
    # 後手番の動きは反転させる
    dis = jax.lax.cond(turn == 1, lambda: -dis, lambda: dis)
    direction = jax.lax.cond(dis == -1, lambda: 0, lambda: direction)
    direction = jax.lax.cond(dis == 3, lambda: 1, lambda: direction)
    direction = jax.lax.cond(dis == -5, lambda: 2, lambda: direction)
    direction = jax.lax.cond(dis == 4, lambda: 3, lambda: direction)
    direction = jax.lax.cond(dis == -4, lambda: 4, lambda: direction)
    direction = jax.lax.cond(dis == 1, lambda: 5, lambda: direction)
    direction = jax.lax.cond(dis == 5, lambda: 6, lambda: direction)
    direction = jax.lax.cond(dis == -3, lambda: 7, lambda: direction)
    direction = jax.lax.cond(
        promote == 1, lambda: direction + 8, lambda: direction
    )
    return direction


# 打った駒の種類をdirに変換
@jax.jit
def _hand_to_direction(piece: int) -> int:
    # 移動のdirはPROMOTE_UPの8が最大なので9以降に配置
    return jax.lax.cond(piece <= 5, lambda: 8 + piece, lambda: 6 + piece)


# AnimalShogiActionをdlshogiのint型actionに変換
@jax.jit
def _action_to_dlaction(action: JaxAnimalShogiAction, turn: int) -> int:
    return jax.lax.cond(
        action.is_drop,
        lambda: _dlshogi_action(_hand_to_direction(action.piece), action.to),
        lambda: _dlshogi_action(
            _point_to_direction(
                action.from_, action.to, action.is_promote, turn
            ),
            action.to,
        ),
    )


actions = [  # scaffolding: three moves and three drops
    JaxAnimalShogiAction(is_drop=FALSE, piece=jnp.int32(1), to=jnp.int32(4), from_=jnp.int32(5)),  # scaffolding
    JaxAnimalShogiAction(is_drop=FALSE, piece=jnp.int32(2), to=jnp.int32(7), from_=jnp.int32(3)),  # scaffolding
    JaxAnimalShogiAction(is_drop=FALSE, piece=jnp.int32(1), to=jnp.int32(0), from_=jnp.int32(1), is_promote=TRUE),  # scaffolding
    JaxAnimalShogiAction(is_drop=TRUE, piece=jnp.int32(1), to=jnp.int32(2)),  # scaffolding
    JaxAnimalShogiAction(is_drop=TRUE, piece=jnp.int32(3), to=jnp.int32(6)),  # scaffolding
    JaxAnimalShogiAction(is_drop=TRUE, piece=jnp.int32(7), to=jnp.int32(9)),  # scaffolding
]  # scaffolding
print([int(_action_to_dlaction(a, 0)) for a in actions])  # scaffolding
names = {"jit(_action_to_dlaction)", "jit(_dlshogi_action)", "jit(_point_to_direction)", "jit(_hand_to_direction)"}  # scaffolding
print(sorted(set(n for n in _COMPILED if n in names)))  # scaffolding
_report(names, len(actions))  # scaffolding

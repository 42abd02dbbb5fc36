# source: https://php.wlsqs.com/faq/1902291.html
# expect: none
# runtime: COMPILES 0 CALLS 2
# why: the article's fix builds the condition as (0. < x) & (x < 1.), an element-wise array op that stays traced, so lax.switch traces both branches and grad returns 0.0 and 1.0 without any Python bool conversion.

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
from jax.lax import switch
import jax.numpy as jnp
from jax import grad

# ✅ 正确:显式拆分为两个布尔数组,并用 & 连接
func_0 = lambda x: jnp.where((0. < x) & (x < 1.), x, 0.)
func_1 = lambda x: jnp.where((0. < x) & (x < 1.), x, 1.)

func_list = [func_0, func_1]
func = lambda index, x: switch(index, func_list, x)

# 现在可安全求导
df = grad(func, argnums=1)(1, 2.0)  # 输出: 0.0(因 x=2.0 不满足条件,返回常数 1 的梯度为 0)
print(df)  # => 0.0

# 验证在条件区间内也正常工作
df_in_range = grad(func, argnums=1)(0, 0.5)  # func_0 在 x=0.5 处导数为 1
print(df_in_range)  # => 1.0
_report({"jit(func)"}, 2)  # scaffolding

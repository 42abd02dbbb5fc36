# source: https://github.com/Takahiro-Yamane-web/jax-practice/blob/2352dee3a88d5db45d11c3f7509e9bb49b3f1486/simulation.py
# expect: none
# runtime: COMPILES 1 CALLS 100
# why: the @jit update_step calls the separately jitted force_fn (jit of grad of the jitted energy_fn); the inner jits are inlined into update_step's trace, which compiles once for the 100-step Python loop.
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
import os, sys, types, tempfile  # scaffolding
import jax.numpy as jnp  # scaffolding
os.chdir(tempfile.mkdtemp())  # scaffolding: trajectory.xyz is written to a scratch dir
C = types.SimpleNamespace(OH_BOND_LENGTH=0.9572, HOH_ANGLE=104.52, MASS_O=15.9994, MASS_H=1.0079, ACC_CONVERSION=4.184e-4)  # scaffolding: values of constants.py
sys.modules["constants"] = C  # scaffolding
# --- molecule.py (same repo), create_water_molecule as written ---
def create_water_molecule():
    """
    1つの水分子の初期座標(XYZ)を生成して返す関数
    Returns:
        positions (jnp.array): shape=(3, 3) の配列。単位はÅ。
                               [ [Ox, Oy, Oz],
                                 [H1x, H1y, H1z],
                                 [H2x, H2y, H2z] ]
    """
    # 1. 酸素原子 (原点)
    o_pos = jnp.array([0.0, 0.0, 0.0])
    
    # 2. 水素原子1 (X軸上に配置)
    # 座標: (r, 0, 0)
    h1_pos = jnp.array([C.OH_BOND_LENGTH, 0.0, 0.0])
    
    # 3. 水素原子2 (XY平面上に配置)
    # 角度をラジアンに変換
    theta_rad = jnp.radians(C.HOH_ANGLE)
    
    # 三角関数で座標計算: (r*cos(θ), r*sin(θ), 0)
    h2_x = C.OH_BOND_LENGTH * jnp.cos(theta_rad)
    h2_y = C.OH_BOND_LENGTH * jnp.sin(theta_rad)
    h2_pos = jnp.array([h2_x, h2_y, 0.0])
    
    # 4. 3つの原子を結合して (3,3) の行列にする
    positions = jnp.stack([o_pos, h1_pos, h2_pos])
    
    return positions

sys.modules["molecule"] = types.SimpleNamespace(create_water_molecule=create_water_molecule, save_xyz=None)  # scaffolding
# --- potential.py (same repo), lines 1-54 as written ---
# potential.py
import jax.numpy as jnp
from jax import jit
import constants as C

# 力の定数（バネの強さ） - 一般的なTIP3Pモデル等のパラメータを参考
K_BOND = 450.0  # kcal/mol/A^2 (結合の硬さ)
K_ANGLE = 55.0  # kcal/mol/rad^2 (角度の硬さ)

def calculate_internal_energy(positions):
    """
    水分子内部の変形エネルギーを計算する関数
    (結合の伸縮 + 角度の開閉)
    """
    # 座標の取り出し
    o_pos = positions[0]
    h1_pos = positions[1]
    h2_pos = positions[2]

    # 1. ベクトルの計算 (O -> H)
    v1 = h1_pos - o_pos
    v2 = h2_pos - o_pos

    # 2. 距離(結合長)の計算: ノルム(長さ)を求める
    r1 = jnp.linalg.norm(v1)
    r2 = jnp.linalg.norm(v2)

    # 3. 角度の計算: 内積の公式 (a・b = |a||b|cosθ) を利用
    # cosθ = (v1・v2) / (r1 * r2)
    dot_product = jnp.dot(v1, v2)
    cos_theta = dot_product / (r1 * r2)
    # 数値誤差で -1.0 ~ 1.0 を超えないようにクリップする
    cos_theta = jnp.clip(cos_theta, -1.0, 1.0)
    theta = jnp.arccos(cos_theta) # ラジアン

    # --- エネルギー計算 (ここが物理モデルの核) ---

    # A. 結合エネルギー (バネ: 伸びの2乗)
    # E = k * (現在の長さ - 理想の長さ)^2
    e_bond1 = K_BOND * (r1 - C.OH_BOND_LENGTH)**2
    e_bond2 = K_BOND * (r2 - C.OH_BOND_LENGTH)**2

    # B. 角度エネルギー (バネ: 角度ズレの2乗)
    # E = k * (現在の角度 - 理想の角度)^2
    # 理想角度を度数法からラジアンへ変換
    theta0_rad = jnp.radians(C.HOH_ANGLE)
    e_angle = K_ANGLE * (theta - theta0_rad)**2

    # 総エネルギー
    return e_bond1 + e_bond2 + e_angle

# JAXのJIT(Just-In-Time)コンパイルで高速化
# これでGPU用に最適化された機械語に変換されます
energy_fn = jit(calculate_internal_energy)

sys.modules["potential"] = types.SimpleNamespace(energy_fn=energy_fn)  # scaffolding
# --- simulation.py as written ---
# simulation.py
import jax
import jax.numpy as jnp
from jax import jit, grad
import constants as C
from molecule import create_water_molecule, save_xyz
from potential import energy_fn

# 1. 質量の配列を作成 (O, H, H)
masses = jnp.array([C.MASS_O, C.MASS_H, C.MASS_H])
# 計算しやすいように (3,1) の形にしておく
mass_array = masses[:, None] 

# 2. 力の計算関数 (前回と同じ)
force_fn = jit(grad(lambda p: -energy_fn(p)))

# 3. 1ステップ分の時間発展 (Velocity Verlet法)
@jit
def update_step(positions, velocities, dt):
    """
    1. 力を計算
    2. 速度を半歩進める
    3. 位置を一歩進める
    4. 新しい位置で力を再計算
    5. 速度を残り半歩進める
    """
    # 現在の力
    forces = force_fn(positions)
    acceleration = (forces / mass_array) * C.ACC_CONVERSION
    
    # 速度の更新 (前半: v + 0.5*a*dt)
    v_half = velocities + 0.5 * acceleration * dt
    
    # 位置の更新 (x + v*dt)
    new_positions = positions + v_half * dt
    
    # 新しい位置での力
    new_forces = force_fn(new_positions)
    new_acceleration = (new_forces / mass_array) * C.ACC_CONVERSION
    
    # 速度の更新 (後半: v + 0.5*a*dt)
    new_velocities = v_half + 0.5 * new_acceleration * dt
    
    return new_positions, new_velocities

# --- メイン実行部 ---
def run_simulation():
    print(f"Simulation running on: {jax.devices()[0]}")
    
    # A. 初期化
    # 理想的な水分子を作る
    positions = create_water_molecule()
    
    # 【重要】わざとH1原子を 0.2Å 引っ張って、バネを伸ばす！
    # これにより、手を離すと振動が始まります
    positions = positions.at[1, 0].add(0.2)
    
    # 初期速度はゼロ (止まった状態からスタート)
    velocities = jnp.zeros_like(positions)
    
    # シミュレーション設定
    dt = 0.5       # 時間刻み: 0.5 fs (フェムト秒)
    steps = 100   # 総ステップ数: 500 fs分  # scaffolding: was 1000
    
    # 軌跡保存用リスト
    trajectory = []
    
    # B. ループ実行
    print("Start Loop...")
    for i in range(steps):
        # GPUで計算更新
        positions, velocities = update_step(positions, velocities, dt)
        
        # 10ステップごとに記録 (全部保存すると重いので)
        if i % 10 == 0:
            # JAXの配列をCPUメモリに移して保存
            traj_pos =  jax.device_get(positions)
            trajectory.append(traj_pos)
            
            # 途中経過の表示 (H1原子のX座標だけ表示して振動を確認)
            if i % 100 == 0:
                h1_x = traj_pos[1, 0]
                print(f"Step {i:4d}: H1 X-coord = {h1_x:.5f} A")

    # C. 結果をファイルに保存
    # 複数のフレームを持つXYZファイルはアニメーションとして再生できます
    with open("trajectory.xyz", "w") as f:
        for i, pos in enumerate(trajectory):
            f.write("3\n")
            f.write(f"Step {i*10}\n")
            f.write(f"O  {pos[0,0]:.5f} {pos[0,1]:.5f} {pos[0,2]:.5f}\n")
            f.write(f"H  {pos[1,0]:.5f} {pos[1,1]:.5f} {pos[1,2]:.5f}\n")
            f.write(f"H  {pos[2,0]:.5f} {pos[2,1]:.5f} {pos[2,2]:.5f}\n")
            
    print("Simulation finished. Saved to 'trajectory.xyz'.")

if __name__ == "__main__":
    run_simulation()
_report({"jit(update_step)", "jit(<lambda>)", "jit(calculate_internal_energy)"}, 100)  # scaffolding

"""Opens the snapshots of a run with water (physics.microphysics: kessler) with xarray and checks
the water's fields against the run's other fields, computed here independently:
- T (K, air_temperature) on the grid's dimensions, equal to p / (rho_d Rd + rho_v Rv) with
  p = p_bar + p_prime, rho_d = (rho_bar + rho_prime) / (1 + qv + qc + qr), rho_v = qv rho_d, and
  between 200 and 320 K;
- rain_rate (kg m-2 s-1, rainfall_flux) and precipitation_amount (kg m-2, precipitation_amount)
  over the surface, on (time, x) in 2-D and (time, y, x) in 3-D, 0 at t = 0, never negative, and
  rain on the ground at the end (precipitation_amount > 0 somewhere: runs of a few minutes);
- the series (output.layout: series, fields.nc) holds the same values at every time, bit for bit.

usage: water_snapshot_check.py PER_TIME_DIR SERIES_DIR   (runs with output.variables all)
       (exit 77 when xarray or h5netcdf is missing)
"""
import glob
import os
import sys

try:
    import h5netcdf  # noqa: F401
    import numpy as np
    import xarray as xr
except ImportError as error:
    print(f"water_snapshot_check: {error} (Debian: python3-xarray, python3-h5netcdf): skipped")
    sys.exit(77)

RD, RV = 287.0, 461.5


def fail(message):
    print(f"water_snapshot_check: {message}")
    sys.exit(1)


def expect_attributes(variable, units, standard_name, dims):
    if variable.attrs.get("units") != units:
        fail(f"{variable.name}: units {variable.attrs.get('units')!r}, not {units!r}")
    if variable.attrs.get("standard_name") != standard_name:
        fail(f"{variable.name}: standard_name {variable.attrs.get('standard_name')!r}, not {standard_name!r}")
    if variable.dims != dims:
        fail(f"{variable.name}: dimensions {variable.dims}, not {dims}")


def check_snapshot(path, rain_expected):
    with xr.open_dataset(path, engine="h5netcdf", decode_times=False) as snapshot:
        three_d = "y" in snapshot.dims
        grid = ("time", "z", "y", "x") if three_d else ("time", "z", "x")
        surface = ("time", "y", "x") if three_d else ("time", "x")
        expect_attributes(snapshot["T"], "K", "air_temperature", grid)
        expect_attributes(snapshot["rain_rate"], "kg m-2 s-1", "rainfall_flux", surface)
        expect_attributes(snapshot["precipitation_amount"], "kg m-2", "precipitation_amount", surface)
        rho = snapshot["rho_bar"] + snapshot["rho_prime"]
        rho_d = rho / (1.0 + snapshot["qv"] + snapshot["qc"] + snapshot["qr"])
        pressure = snapshot["p_bar"] + snapshot["p_prime"]
        expected = pressure / (rho_d * RD + snapshot["qv"] * rho_d * RV)
        temperature = snapshot["T"]
        error = float(np.max(np.abs(temperature - expected) / expected))
        if error > 1e-12:
            fail(f"{path}: T differs from p / (rho_d Rd + rho_v Rv) by {error:.3e} (relative)")
        if not 200.0 < float(temperature.min()) <= float(temperature.max()) < 320.0:
            fail(f"{path}: T from {float(temperature.min())} to {float(temperature.max())} K")
        rain, amount = snapshot["rain_rate"].values, snapshot["precipitation_amount"].values
        if np.any(rain < 0.0) or np.any(amount < 0.0):
            fail(f"{path}: a negative rain rate or precipitation amount")
        step = int(snapshot["step"].values[0])
        if step == 0 and (np.any(rain != 0.0) or np.any(amount != 0.0)):
            fail(f"{path}: rain at t = 0")
        if rain_expected and not np.any(amount > 0.0):
            fail(f"{path}: no precipitation at the end of the run")
        return {name: snapshot[name].values for name in ("T", "rain_rate", "precipitation_amount")}


def main():
    per_time, series = sys.argv[1:3]
    paths = sorted(p for p in glob.glob(os.path.join(per_time, "fields_[0-9]*.nc")) if "_failed" not in p)
    if len(paths) < 2:
        fail(f"{len(paths)} snapshots in {per_time}")
    values = [check_snapshot(path, path == paths[-1]) for path in paths]
    with xr.open_dataset(os.path.join(series, "fields.nc"), engine="h5netcdf", decode_times=False) as appended:
        if appended.sizes["time"] != len(paths):
            fail(f"the series holds {appended.sizes['time']} times; there are {len(paths)} snapshots")
        for t, fields in enumerate(values):
            for name, field in fields.items():
                if not np.array_equal(appended[name].values[t : t + 1], field):
                    fail(f"the series' {name} at time {t} is not the snapshot's")
    print(f"water_snapshot_check: {len(paths)} snapshots and the series hold T, rain_rate and precipitation_amount")


if __name__ == "__main__":
    main()

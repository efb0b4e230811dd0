#pragma once
/// a·b + c rounded once, in the type of its arguments (double or float: the state's Real), on the
/// host and the device alike. C's fma alone would take floats as doubles on the host (and round
/// twice); these overloads make a call with mixed types an error instead of a silent promotion.
#include <cmath>

#include "kernels/backend/host_device.hpp"

namespace simapp {

SIMAPP_HOST_DEVICE inline double fma(double a, double b, double c) { return ::fma(a, b, c); }
SIMAPP_HOST_DEVICE inline float fma(float a, float b, float c) { return ::fmaf(a, b, c); }

}  // namespace simapp

#pragma once
/// Text from outside (a path, a name, a value the user gave) as simapp prints it: on one line
/// and free of terminal controls, so that no name can start a line of its own in a log or
/// recolour a terminal. Control characters are written as escapes: \n, \t, \r, \xNN for the
/// others below 0x20 and DEL, \uNNNN for the C1 controls (U+0080 to U+009F, which some
/// terminals obey as ESC sequences). Other text, UTF-8 included, is kept as it is.
#include <string>
#include <string_view>

namespace simapp {

/// `text` with its control characters escaped (see above).
std::string printable(std::string_view text);

}  // namespace simapp

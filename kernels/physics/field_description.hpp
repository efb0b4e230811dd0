#pragma once
/// How a field is described in the files simapp writes: its name and CF attributes, as constant
/// text, so that the model's tables of variables and fields are constants.

namespace simapp {

struct FieldDescription {
  const char* name = "";
  const char* unit = "";           ///< UDUNITS ("kg m-3")
  const char* long_name = "";      ///< what it is, in a few words (CF's long_name: a plot's label)
  const char* standard_name = "";  ///< CF's standard name, where it has one; else ""
  const char* comment = "";        ///< how it is defined, where that says more than its name; else ""
};

}  // namespace simapp

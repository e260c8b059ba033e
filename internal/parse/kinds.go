package parse

// kind is scry's own small enumeration of the tree-sitter node kinds it acts
// on. Comparing these (looked up by node kind id) avoids a cgo string
// conversion per node on large files.
type kind uint8

const (
	kNone kind = iota
	kComment
	kImport
	kExport
	kEmpty
	kExpressionStatement
	kLexical
	kVariable
	kVariableDeclarator
	kFunctionDecl
	kGeneratorFunctionDecl
	kFunctionSignature
	kClassDecl
	kAbstractClassDecl
	kClass
	kInterface
	kTypeAlias
	kEnum
	kInternalModule
	kModule
	kAmbient
	kStatementBlock
	kClassHeritage
	kMethodDef
	kMethodSignature
	kAbstractMethodSignature
	kFieldDef
	kStaticBlock
	kIndexSignature
	kDecorator
	kPropertySignature
	kCallSignature
	kConstructSignature
	kEnumAssignment
	kPropertyIdentifier
	kString
	kArrowFunction
	kFunctionExpression
	kGeneratorFunction
	kObject
	kCall
	kNew
	kPair
	kImportClause
	kImportRequireClause
	kIdentifier
	kNamespaceImport
	kNamedImports
	kImportSpecifier
	kShorthandPattern
	kPairPattern
	kAssignment
	kArguments
	kMember
	kJSXExpression
	kJSXAttribute
	kSkip // subtrees that never hold declarations with bodies
)

var kindNames = map[string]kind{
	"comment":                               kComment,
	"html_comment":                          kComment,
	"import_statement":                      kImport,
	"export_statement":                      kExport,
	"empty_statement":                       kEmpty,
	"expression_statement":                  kExpressionStatement,
	"lexical_declaration":                   kLexical,
	"variable_declaration":                  kVariable,
	"variable_declarator":                   kVariableDeclarator,
	"function_declaration":                  kFunctionDecl,
	"generator_function_declaration":        kGeneratorFunctionDecl,
	"function_signature":                    kFunctionSignature,
	"class_declaration":                     kClassDecl,
	"abstract_class_declaration":            kAbstractClassDecl,
	"class":                                 kClass,
	"interface_declaration":                 kInterface,
	"type_alias_declaration":                kTypeAlias,
	"enum_declaration":                      kEnum,
	"internal_module":                       kInternalModule,
	"module":                                kModule,
	"ambient_declaration":                   kAmbient,
	"statement_block":                       kStatementBlock,
	"class_heritage":                        kClassHeritage,
	"method_definition":                     kMethodDef,
	"method_signature":                      kMethodSignature,
	"abstract_method_signature":             kAbstractMethodSignature,
	"public_field_definition":               kFieldDef,
	"field_definition":                      kFieldDef,
	"class_static_block":                    kStaticBlock,
	"index_signature":                       kIndexSignature,
	"decorator":                             kDecorator,
	"property_signature":                    kPropertySignature,
	"call_signature":                        kCallSignature,
	"construct_signature":                   kConstructSignature,
	"enum_assignment":                       kEnumAssignment,
	"property_identifier":                   kPropertyIdentifier,
	"string":                                kString,
	"arrow_function":                        kArrowFunction,
	"function_expression":                   kFunctionExpression,
	"function":                              kFunctionExpression,
	"generator_function":                    kGeneratorFunction,
	"object":                                kObject,
	"call_expression":                       kCall,
	"new_expression":                        kNew,
	"pair":                                  kPair,
	"import_clause":                         kImportClause,
	"import_require_clause":                 kImportRequireClause,
	"identifier":                            kIdentifier,
	"namespace_import":                      kNamespaceImport,
	"named_imports":                         kNamedImports,
	"import_specifier":                      kImportSpecifier,
	"shorthand_property_identifier_pattern": kShorthandPattern,
	"pair_pattern":                          kPairPattern,
	"assignment_expression":                 kAssignment,
	"arguments":                             kArguments,
	"member_expression":                     kMember,
	"jsx_expression":                        kJSXExpression,
	"jsx_attribute":                         kJSXAttribute,
	"template_string":                       kSkip,
	"regex":                                 kSkip,
	"number":                                kSkip,
	"type_annotation":                       kSkip,
	"type_arguments":                        kSkip,
	"type_parameters":                       kSkip,
	"jsx_text":                              kSkip,
	"predefined_type":                       kSkip,
	"type_identifier":                       kSkip,
	"property_identifier_":                  kSkip,
}

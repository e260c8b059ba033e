package snapshot

import (
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/scry-dev/scry/internal/parse"
)

// kind is this package's enumeration of the tree-sitter node kinds it acts
// on, looked up by kind id so that the walks never convert kind names.
type kind uint8

const (
	kNone kind = iota
	kProgram
	kStatementBlock
	kClassBody
	kObject
	kObjectType
	kInterfaceBody
	kEnumBody
	kSwitchBody
	kArray
	kJSXElement
	kJSXOpening
	kJSXClosing
	kJSXSelfClosing
	kImport
	kImportClause
	kNamespaceImport
	kNamedImports
	kImportSpecifier
	kImportRequireClause
	kImportAlias
	kExport
	kExportSpecifier
	kLexical
	kVariable
	kDeclarator
	kFunctionDecl
	kGeneratorFunctionDecl
	kFunctionSignature
	kFunctionExpr
	kGeneratorFunction
	kArrowFunction
	kMethod
	kClassDecl
	kAbstractClassDecl
	kClass
	kInterface
	kTypeAlias
	kEnum
	kInternalModule
	kModule
	kAmbient
	kExpressionStatement
	kFieldDef
	kStaticBlock
	kDecorator
	kFormalParameters
	kRequiredParameter
	kOptionalParameter
	kIdentifier
	kTypeIdentifier
	kShorthandProperty
	kShorthandPattern
	kObjectPattern
	kArrayPattern
	kPairPattern
	kRestPattern
	kAssignmentPattern
	kObjectAssignmentPattern
	kPropertyIdentifier
	kPrivatePropertyIdentifier
	kNestedTypeIdentifier
	kMemberExpression
	kThis
	kCall
	kForStatement
	kForInStatement
	kCatchClause
	kConditionalType
	kInferType
	kIndexSignature
	kMappedTypeClause
	kTypeParameters
	kTypeParameter
	kAccessibilityModifier
	kComment
	kParenthesized
	kError
)

var kindNames = map[string]kind{
	"program":                               kProgram,
	"statement_block":                       kStatementBlock,
	"class_body":                            kClassBody,
	"object":                                kObject,
	"object_type":                           kObjectType,
	"interface_body":                        kInterfaceBody,
	"enum_body":                             kEnumBody,
	"switch_body":                           kSwitchBody,
	"array":                                 kArray,
	"jsx_element":                           kJSXElement,
	"jsx_opening_element":                   kJSXOpening,
	"jsx_closing_element":                   kJSXClosing,
	"jsx_self_closing_element":              kJSXSelfClosing,
	"import_statement":                      kImport,
	"import_clause":                         kImportClause,
	"namespace_import":                      kNamespaceImport,
	"named_imports":                         kNamedImports,
	"import_specifier":                      kImportSpecifier,
	"import_require_clause":                 kImportRequireClause,
	"import_alias":                          kImportAlias,
	"export_statement":                      kExport,
	"export_specifier":                      kExportSpecifier,
	"lexical_declaration":                   kLexical,
	"variable_declaration":                  kVariable,
	"variable_declarator":                   kDeclarator,
	"function_declaration":                  kFunctionDecl,
	"generator_function_declaration":        kGeneratorFunctionDecl,
	"function_signature":                    kFunctionSignature,
	"function_expression":                   kFunctionExpr,
	"function":                              kFunctionExpr,
	"generator_function":                    kGeneratorFunction,
	"arrow_function":                        kArrowFunction,
	"method_definition":                     kMethod,
	"method_signature":                      kMethod,
	"abstract_method_signature":             kMethod,
	"class_declaration":                     kClassDecl,
	"abstract_class_declaration":            kAbstractClassDecl,
	"class":                                 kClass,
	"interface_declaration":                 kInterface,
	"type_alias_declaration":                kTypeAlias,
	"enum_declaration":                      kEnum,
	"internal_module":                       kInternalModule,
	"module":                                kModule,
	"ambient_declaration":                   kAmbient,
	"expression_statement":                  kExpressionStatement,
	"public_field_definition":               kFieldDef,
	"field_definition":                      kFieldDef,
	"class_static_block":                    kStaticBlock,
	"decorator":                             kDecorator,
	"formal_parameters":                     kFormalParameters,
	"required_parameter":                    kRequiredParameter,
	"optional_parameter":                    kOptionalParameter,
	"identifier":                            kIdentifier,
	"type_identifier":                       kTypeIdentifier,
	"shorthand_property_identifier":         kShorthandProperty,
	"shorthand_property_identifier_pattern": kShorthandPattern,
	"object_pattern":                        kObjectPattern,
	"array_pattern":                         kArrayPattern,
	"pair_pattern":                          kPairPattern,
	"rest_pattern":                          kRestPattern,
	"assignment_pattern":                    kAssignmentPattern,
	"object_assignment_pattern":             kObjectAssignmentPattern,
	"property_identifier":                   kPropertyIdentifier,
	"private_property_identifier":           kPrivatePropertyIdentifier,
	"nested_type_identifier":                kNestedTypeIdentifier,
	"member_expression":                     kMemberExpression,
	"this":                                  kThis,
	"call_expression":                       kCall,
	"for_statement":                         kForStatement,
	"for_in_statement":                      kForInStatement,
	"catch_clause":                          kCatchClause,
	"conditional_type":                      kConditionalType,
	"infer_type":                            kInferType,
	"index_signature":                       kIndexSignature,
	"mapped_type_clause":                    kMappedTypeClause,
	"type_parameters":                       kTypeParameters,
	"type_parameter":                        kTypeParameter,
	"accessibility_modifier":                kAccessibilityModifier,
	"comment":                               kComment,
	"html_comment":                          kComment,
	"parenthesized_expression":              kParenthesized,
}

// fieldNames are the grammar fields the walks read, resolved to ids once per
// grammar (a field lookup by name converts the name to a C string each time).
var fieldNames = [...]string{
	"name", "alias", "value", "body", "parameters", "parameter", "pattern",
	"type_parameters", "object", "property", "left", "right", "kind",
	"declaration", "initializer", "function", "arguments", "module",
}

const (
	fName = iota
	fAlias
	fValue
	fBody
	fParameters
	fParameter
	fPattern
	fTypeParameters
	fObject
	fProperty
	fLeft
	fRight
	fKind
	fDeclaration
	fInitializer
	fFunction
	fArguments
	fModule
	numFields
)

// errorKindID is tree-sitter's ts_builtin_sym_error, the kind of ERROR
// nodes, which lies outside the grammar's kind table.
const errorKindID = 0xFFFF

type grammar struct {
	lang   *sitter.Language
	kinds  []kind // by kind id
	fields [numFields]uint16
	pool   *parse.ParserPool
}

var (
	grammarsOnce sync.Once
	grammars     map[string]*grammar
)

func loadGrammars() {
	grammars = map[string]*grammar{}
	for _, lang := range []string{parse.LangTypeScript, parse.LangTSX, parse.LangJavaScript} {
		if l, ok := parse.Language(lang); ok {
			grammars[lang] = newGrammar(l)
		}
	}
}

func newGrammar(l *sitter.Language) *grammar {
	g := &grammar{lang: l, kinds: parse.KindTable(l, kindNames)}
	for i, name := range fieldNames {
		g.fields[i] = l.FieldIdForName(name) // 0 when the grammar lacks the field
	}
	g.pool = parse.NewParserPool(l)
	return g
}

func grammarFor(lang string) (*grammar, bool) {
	grammarsOnce.Do(loadGrammars)
	g, ok := grammars[lang]
	return g, ok
}

// parseTree parses src; the caller closes the tree. Parsers are pooled: they
// are costly to create and not safe for concurrent use.
func (g *grammar) parseTree(src []byte) *sitter.Tree {
	p := g.pool.Get()
	defer g.pool.Put(p)
	return p.Parse(src, nil)
}

func (g *grammar) kindOf(n *sitter.Node) kind {
	id := n.KindId()
	if id == errorKindID {
		return kError
	}
	if int(id) < len(g.kinds) {
		return g.kinds[id]
	}
	return kNone
}

// child returns n's child in field f, or nil.
func (g *grammar) child(n *sitter.Node, f int) *sitter.Node {
	id := g.fields[f]
	if id == 0 {
		return nil
	}
	return n.ChildByFieldId(id)
}

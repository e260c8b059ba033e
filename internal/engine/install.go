package engine

import "github.com/scry-dev/scry/internal/install"

// Registering scry's MCP server in agents' configuration files (package
// install), for the front ends.

// Agent is an agent whose MCP configuration scry edits.
type Agent = install.Agent

// AgentChange is what an install or uninstall does to one file.
type AgentChange = install.Change

// AgentRequest is one install or uninstall.
type AgentRequest = install.Request

// Agent scopes.
const (
	ScopeUser    = install.ScopeUser
	ScopeProject = install.ScopeProject
)

// Agents lists every agent scry installs into.
func Agents() []Agent { return install.Agents }

// FindAgent is the agent with the given ID.
func FindAgent(id string) (Agent, error) { return install.Find(id) }

// AgentEnv is the running user's home and environment.
func AgentEnv() (install.Env, error) { return install.OSEnv() }

// PlanAgent computes an install or uninstall, writing nothing.
func PlanAgent(r AgentRequest) (AgentChange, error) { return install.Plan(r) }

// ApplyAgent writes a planned change atomically after a backup.
func ApplyAgent(c AgentChange) (backup string, err error) { return install.Apply(c) }

// PlanClaudeHook computes adding (or removing) the optional Claude Code
// hook that adds scry's best matches to the agent's Grep and Glob calls.
func PlanClaudeHook(r AgentRequest) (AgentChange, error) { return install.PlanHook(r) }

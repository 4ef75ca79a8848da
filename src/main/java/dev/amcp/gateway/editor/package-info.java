/** The admin editor UI under {@code /admin}: servlet-rendered pages for servers, tools, runs and the license. */
package dev.amcp.gateway.editor;

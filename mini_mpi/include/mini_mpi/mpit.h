/*
 * mini_mpi/mpit.h: included by mpi.h; the MPI tool information interface (MPI-4.1 §15.3):
 * control variables, performance variables, events, categories and their enumerations.
 * Handles are pointers to library objects, as in MPICH; the enumerated constants have MPICH 4's
 * values. The error classes follow MPI_ERR_REVOKED in MPICH's relative order (MPICH's numbers
 * would collide with our other classes). Every function is also PMPI_T_... (MPI-4.1 §15.2).
 * docs/tools-interface.md names every variable, category, source and event.
 */
#ifndef MINI_MPI_MPIT_H
#define MINI_MPI_MPIT_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Error classes (MPI-4.1 §15.3.10) --------------------------------------------------- */
#define MPI_T_ERR_MEMORY 65
#define MPI_T_ERR_NOT_INITIALIZED 66
#define MPI_T_ERR_CANNOT_INIT 67
#define MPI_T_ERR_INVALID_INDEX 68
#define MPI_T_ERR_INVALID_ITEM 69
#define MPI_T_ERR_INVALID_HANDLE 70
#define MPI_T_ERR_OUT_OF_HANDLES 71
#define MPI_T_ERR_OUT_OF_SESSIONS 72
#define MPI_T_ERR_INVALID_SESSION 73
#define MPI_T_ERR_CVAR_SET_NOT_NOW 74
#define MPI_T_ERR_CVAR_SET_NEVER 75
#define MPI_T_ERR_PVAR_NO_STARTSTOP 76
#define MPI_T_ERR_PVAR_NO_WRITE 77
#define MPI_T_ERR_PVAR_NO_ATOMIC 78
#define MPI_T_ERR_INVALID_NAME 79
#define MPI_T_ERR_INVALID 80
#define MPI_T_ERR_NOT_SUPPORTED 81
#define MPI_T_ERR_NOT_ACCESSIBLE 82

/* ---- Handle types ------------------------------------------------------------------------ */
struct MPIR_T_enum_s;
struct MPIR_T_cvar_handle_s;
struct MPIR_T_pvar_handle_s;
struct MPIR_T_pvar_session_s;
struct MPIR_T_event_registration_s;
struct MPIR_T_event_instance_s;
typedef struct MPIR_T_enum_s *MPI_T_enum;
typedef struct MPIR_T_cvar_handle_s *MPI_T_cvar_handle;
typedef struct MPIR_T_pvar_handle_s *MPI_T_pvar_handle;
typedef struct MPIR_T_pvar_session_s *MPI_T_pvar_session;
typedef struct MPIR_T_event_registration_s *MPI_T_event_registration;
typedef struct MPIR_T_event_instance_s *MPI_T_event_instance;

#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)(intptr_t)-1)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_EVENT_REGISTRATION_NULL ((MPI_T_event_registration)0)

/* ---- Enumerated constants (MPICH 4's values) -------------------------------------------- */
enum MPIR_T_verbosity_t {
    MPI_T_VERBOSITY_USER_BASIC = 221,
    MPI_T_VERBOSITY_USER_DETAIL,
    MPI_T_VERBOSITY_USER_ALL,
    MPI_T_VERBOSITY_TUNER_BASIC,
    MPI_T_VERBOSITY_TUNER_DETAIL,
    MPI_T_VERBOSITY_TUNER_ALL,
    MPI_T_VERBOSITY_MPIDEV_BASIC,
    MPI_T_VERBOSITY_MPIDEV_DETAIL,
    MPI_T_VERBOSITY_MPIDEV_ALL
};

enum MPIR_T_bind_t {
    MPI_T_BIND_NO_OBJECT = 9700,
    MPI_T_BIND_MPI_COMM,
    MPI_T_BIND_MPI_DATATYPE,
    MPI_T_BIND_MPI_ERRHANDLER,
    MPI_T_BIND_MPI_FILE,
    MPI_T_BIND_MPI_GROUP,
    MPI_T_BIND_MPI_OP,
    MPI_T_BIND_MPI_REQUEST,
    MPI_T_BIND_MPI_WIN,
    MPI_T_BIND_MPI_MESSAGE,
    MPI_T_BIND_MPI_INFO,
    MPI_T_BIND_MPI_SESSION
};

enum MPIR_T_scope_t {
    MPI_T_SCOPE_CONSTANT = 60438,
    MPI_T_SCOPE_READONLY,
    MPI_T_SCOPE_LOCAL,
    MPI_T_SCOPE_GROUP,
    MPI_T_SCOPE_GROUP_EQ,
    MPI_T_SCOPE_ALL,
    MPI_T_SCOPE_ALL_EQ
};

enum MPIR_T_pvar_class_t {
    MPI_T_PVAR_CLASS_STATE = 240,
    MPI_T_PVAR_CLASS_LEVEL,
    MPI_T_PVAR_CLASS_SIZE,
    MPI_T_PVAR_CLASS_PERCENTAGE,
    MPI_T_PVAR_CLASS_HIGHWATERMARK,
    MPI_T_PVAR_CLASS_LOWWATERMARK,
    MPI_T_PVAR_CLASS_COUNTER,
    MPI_T_PVAR_CLASS_AGGREGATE,
    MPI_T_PVAR_CLASS_TIMER,
    MPI_T_PVAR_CLASS_GENERIC
};

typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED,
    MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;

typedef enum MPI_T_source_order {
    MPI_T_SOURCE_ORDERED = 0,
    MPI_T_SOURCE_UNORDERED
} MPI_T_source_order;

typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
                                     MPI_T_event_registration event_registration,
                                     MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration,
                                          MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count,
                                             MPI_T_event_registration event_registration,
                                             int source_index, MPI_T_cb_safety cb_safety,
                                             void *user_data);

/* ---- Setup and teardown (§15.3.4) -------------------------------------------------------- */
MMPI_API(int, T_init_thread, (int required, int *provided));
MMPI_API(int, T_finalize, (void));

/* ---- Enumerations (§15.3.5) -------------------------------------------------------------- */
MMPI_API(int, T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name, int *name_len));
MMPI_API(int, T_enum_get_item,
         (MPI_T_enum enumtype, int index, int *value, char *name, int *name_len));

/* ---- Control variables (§15.3.6) --------------------------------------------------------- */
MMPI_API(int, T_cvar_get_num, (int *num_cvar));
MMPI_API(int, T_cvar_get_info,
         (int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
          MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope));
MMPI_API(int, T_cvar_get_index, (const char *name, int *cvar_index));
MMPI_API(int, T_cvar_handle_alloc,
         (int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count));
MMPI_API(int, T_cvar_handle_free, (MPI_T_cvar_handle * handle));
MMPI_API(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf));
MMPI_API(int, T_cvar_write, (MPI_T_cvar_handle handle, const void *buf));

/* ---- Performance variables (§15.3.7) ----------------------------------------------------- */
MMPI_API(int, T_pvar_get_num, (int *num_pvar));
MMPI_API(int, T_pvar_get_info,
         (int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
          MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
          int *readonly, int *continuous, int *atomic));
MMPI_API(int, T_pvar_get_index, (const char *name, int var_class, int *pvar_index));
MMPI_API(int, T_pvar_session_create, (MPI_T_pvar_session * session));
MMPI_API(int, T_pvar_session_free, (MPI_T_pvar_session * session));
MMPI_API(int, T_pvar_handle_alloc,
         (MPI_T_pvar_session session, int pvar_index, void *obj_handle,
          MPI_T_pvar_handle *handle, int *count));
MMPI_API(int, T_pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle *handle));
MMPI_API(int, T_pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle));
MMPI_API(int, T_pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle));
MMPI_API(int, T_pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf));
MMPI_API(int, T_pvar_write,
         (MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf));
MMPI_API(int, T_pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle));
MMPI_API(int, T_pvar_readreset,
         (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf));

/* ---- Events (§15.3.8) -------------------------------------------------------------------- */
MMPI_API(int, T_source_get_num, (int *num_sources));
MMPI_API(int, T_source_get_info,
         (int source_index, char *name, int *name_len, char *desc, int *desc_len,
          MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks,
          MPI_Info *info));
MMPI_API(int, T_source_get_timestamp, (int source_index, MPI_Count *timestamp));
MMPI_API(int, T_event_get_num, (int *num_events));
MMPI_API(int, T_event_get_info,
         (int event_index, char *name, int *name_len, int *verbosity,
          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len,
          int *bind));
MMPI_API(int, T_event_get_index, (const char *name, int *event_index));
MMPI_API(int, T_event_handle_alloc,
         (int event_index, void *obj_handle, MPI_Info info,
          MPI_T_event_registration *event_registration));
MMPI_API(int, T_event_handle_set_info,
         (MPI_T_event_registration event_registration, MPI_Info info));
MMPI_API(int, T_event_handle_get_info,
         (MPI_T_event_registration event_registration, MPI_Info *info_used));
MMPI_API(int, T_event_register_callback,
         (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
          MPI_Info info, void *user_data, MPI_T_event_cb_function *event_cb_function));
MMPI_API(int, T_event_callback_set_info,
         (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
          MPI_Info info));
MMPI_API(int, T_event_callback_get_info,
         (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
          MPI_Info *info_used));
MMPI_API(int, T_event_handle_free,
         (MPI_T_event_registration event_registration, void *user_data,
          MPI_T_event_free_cb_function *free_cb_function));
MMPI_API(int, T_event_set_dropped_handler,
         (MPI_T_event_registration event_registration,
          MPI_T_event_dropped_cb_function *dropped_cb_function));
MMPI_API(int, T_event_read, (MPI_T_event_instance event_instance, int element_index,
                             void *buffer));
MMPI_API(int, T_event_copy, (MPI_T_event_instance event_instance, void *buffer));
MMPI_API(int, T_event_get_timestamp,
         (MPI_T_event_instance event_instance, MPI_Count *event_timestamp));
MMPI_API(int, T_event_get_source, (MPI_T_event_instance event_instance, int *source_index));

/* ---- Categories (§15.3.9) ---------------------------------------------------------------- */
MMPI_API(int, T_category_get_num, (int *num_cat));
MMPI_API(int, T_category_get_info,
         (int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
          int *num_pvars, int *num_categories));
MMPI_API(int, T_category_get_num_events, (int cat_index, int *num_events));
MMPI_API(int, T_category_get_index, (const char *name, int *cat_index));
MMPI_API(int, T_category_get_cvars, (int cat_index, int len, int indices[]));
MMPI_API(int, T_category_get_pvars, (int cat_index, int len, int indices[]));
MMPI_API(int, T_category_get_events, (int cat_index, int len, int indices[]));
MMPI_API(int, T_category_get_categories, (int cat_index, int len, int indices[]));
MMPI_API(int, T_category_changed, (int *update_number));

#ifdef __cplusplus
}
#endif

#endif /* MINI_MPI_MPIT_H */
